import { opKind } from './data.js'

/**
 * The critical path of a request: the chain of waits its latency was made
 * of. It is walked back from the last of the app's continuations before the
 * request ended: an await continued because the promise it awaited settled,
 * which happened in some callback (a timer's, a socket's, another
 * continuation); a callback ran because the code that made its operation
 * ran, and its operation completed. Each step back follows whichever came
 * last.
 *
 * @typedef {import('./data.js').AsyncOp} AsyncOp
 * @typedef {import('./request.js').RequestGraph} RequestGraph
 *
 * @typedef {object} PathStep one wait on the critical path
 * @property {number} id the operation
 * @property {string} type
 * @property {string} kind await, promise, timer, fs, socket, … (see opKind)
 * @property {number} site where it was made
 * @property {number} awaitedAt the site of the app's code that continued when it was done, -1 if none
 * @property {number} start ms from the request's start
 * @property {number} end
 * @property {string | null} waitedOn the function of Node's or a library's that made it (`fetch`, `Pool.query`), when known
 *
 * @typedef {object} Bar one operation of a request's waterfall
 * @property {number} id
 * @property {string} type
 * @property {string} kind
 * @property {number} site
 * @property {number} start made
 * @property {number} end settled (the request's end when it never did)
 * @property {number} resumed when its callback or continuation ran, -1 if never
 * @property {boolean} await made by await or .then
 * @property {boolean} settled false when it never settled while traced
 * @property {boolean} critical on the critical path
 */

/** @param {RequestGraph} graph @param {AsyncOp} op */
export function kindOf (graph, op) {
  return graph.isAwait(op) ? 'await' : opKind(op.type)
}

/** The most operations a request's waterfall shows: those on the path, then the longest. */
export const MAX_BARS = 300

/**
 * @param {RequestGraph} graph
 * @returns {AsyncOp[]} the path's operations, first to last
 */
export function criticalOps (graph) {
  const { request } = graph
  let last = null
  for (const op of request.ops) {
    if (op.before < 0 || op.before > request.durationMs + 0.01 || !isAppCode(graph, op)) continue
    if (!last || op.before >= last.before) last = op
  }
  /** @type {AsyncOp[]} */
  const path = []
  const seen = new Set()
  for (let op = /** @type {AsyncOp | undefined} */ (last ?? undefined); op && !seen.has(op.id); op = previous(graph, op)) {
    seen.add(op.id)
    path.push(op)
  }
  return path.reverse()
}

/**
 * What `op` waited for last: for an await, the callback that settled what it
 * awaited (if that came after the code that made the await); otherwise the
 * code that made it.
 * @param {RequestGraph} graph @param {AsyncOp} op
 */
function previous (graph, op) {
  const maker = graph.byId.get(op.exec)
  if (graph.isAwait(op)) {
    const awaited = graph.byId.get(op.trigger)
    if (awaited) {
      const settler = graph.byId.get(awaited.resolvedBy)
      if (settler && settler !== op && (!maker || settler.before >= maker.before)) return settler
      // Settled from outside the request (a pooled socket's callback, a timer of another's): the
      // promise awaited is the wait itself.
      if (!settler && !graph.isAwait(awaited) && awaited.resolved >= 0) return awaited
    }
  }
  return maker
}

/**
 * The continuations and callbacks of the app's own code (not Node's ticks of
 * its streams, nor promises Node resolves inside its own code).
 * @param {RequestGraph} graph @param {AsyncOp} op
 */
function isAppCode (graph, op) {
  if (!graph.isWork(op) && !graph.isAwait(op)) return false
  return op.site >= 0 && graph.sites.get(op.site)?.app === true
}

/**
 * The waits on the critical path: the operations on it that are work (a
 * timer, a read, a promise the app made), with the app's await that
 * continued after each.
 * @param {RequestGraph} graph
 * @param {AsyncOp[]} path from criticalOps
 * @returns {PathStep[]}
 */
export function pathSteps (graph, path) {
  /** @type {PathStep[]} */
  const steps = []
  for (let i = 0; i < path.length; i++) {
    const op = path[i]
    if ((graph.isAwait(op) && graph.byId.has(op.trigger)) || (!graph.isAwait(op) && !graph.isWork(op))) continue
    const end = graph.isAwait(op) ? op.before : graph.settled(op)
    if (end < 0) continue
    const next = path.slice(i + 1).find((o) => graph.isAppAwait(o))
    // A wait Node or a library started on its own (a write of undici's) is named by the await it ended.
    const waitedOn = graph.waitedOn(op) ?? (next ? graph.waitedOn(next) : null)
    steps.push({ id: op.id, type: op.type, kind: kindOf(graph, op), site: op.site, awaitedAt: next ? next.site : -1, start: op.created, end, waitedOn })
  }
  return steps
}

/**
 * @param {RequestGraph} graph
 * @param {Set<number>} critical ids of the operations on the critical path
 * @returns {Bar[]}
 */
export function waterfall (graph, critical) {
  const { request } = graph
  /** @type {Bar[]} */
  const bars = []
  for (const op of request.ops) {
    if (!graph.isWork(op) && !graph.isAppAwait(op)) continue
    const settledAt = graph.settled(op)
    bars.push({
      id: op.id,
      type: op.type,
      kind: kindOf(graph, op),
      site: op.site,
      start: op.created,
      end: settledAt >= 0 ? settledAt : Math.max(op.created, request.durationMs),
      resumed: op.before,
      await: graph.isAwait(op),
      settled: settledAt >= 0,
      critical: critical.has(op.id)
    })
  }
  if (bars.length <= MAX_BARS) return bars
  const keep = new Set(bars.filter((b) => b.critical).map((b) => b.id))
  for (const bar of [...bars].sort((a, b) => (b.end - b.start) - (a.end - a.start))) {
    if (keep.size >= MAX_BARS) break
    keep.add(bar.id)
  }
  return bars.filter((b) => keep.has(b.id))
}
