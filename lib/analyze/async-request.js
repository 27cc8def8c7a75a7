/**
 * One traced request's operations as a graph: which promises are awaits (made
 * by `await` or `.then`, waiting on another), and the chains of waits in which
 * the app's code continued one step after another.
 *
 * A step is one place where the app's code waited: an `await`, or the
 * callback of a `.then`. It has the site of that line, and the time the work
 * it waited for ran (from when that work was started to when it settled).
 * A step is serial when its work was started only after the step before it
 * in the chain had resumed, so the two never overlapped.
 *
 * @typedef {import('./async-data.js').AsyncOp} AsyncOp
 * @typedef {import('./async-data.js').AsyncSite} AsyncSite
 * @typedef {import('./async-data.js').TracedRequest} TracedRequest
 *
 * @typedef {object} Step
 * @property {AsyncOp} op the await's promise, or the `.then` promise whose callback started the work
 * @property {number} site
 * @property {string} place the line of the site (sites that differ only in their callers are one place)
 * @property {number} start when the work waited for was started
 * @property {number} end when it settled
 * @property {boolean} serial started only after the previous step of its chain resumed
 */

/** A wait shorter than this (an `await` of a value at hand) is not a step. */
export const MIN_STEP_MS = 0.1

/** Operations Node makes for its own bookkeeping, not waits of the app's. */
const BOOKKEEPING = new Set(['TickObject', 'WRITEWRAP', 'SHUTDOWNWRAP', 'HTTPINCOMINGMESSAGE', 'HTTPSERVERASYNCRESOURCE', 'Microtask'])

export class RequestGraph {
  /**
   * @param {TracedRequest} request
   * @param {Map<number, AsyncSite>} sites
   */
  constructor (request, sites) {
    this.request = request
    this.sites = sites
    /** @type {Map<number, AsyncOp>} */
    this.byId = new Map(request.ops.map((op) => [op.id, op]))
    /** @type {Set<number> | null} the operations whose callbacks started work */
    this.workExecs = null
  }

  /** @param {AsyncOp} op when it settled: a promise's resolution, another operation's callback; -1 for never */
  settled (op) {
    return op.type === 'PROMISE' ? op.resolved : op.before
  }

  /**
   * A promise made by `await` or `.then` on another promise: its trigger is
   * the promise waited on (a new promise's trigger is the code that made it).
   * @param {AsyncOp} op
   */
  isAwait (op) {
    if (op.type !== 'PROMISE' || op.trigger === op.exec) return false
    const awaited = this.byId.get(op.trigger)
    return awaited === undefined || awaited.type === 'PROMISE'
  }

  /**
   * An await or `.then` in the app's own code (V8 makes promises of its own
   * to wait on a thenable: those wait on the same thing as the app's).
   * @param {AsyncOp} op
   */
  isAppAwait (op) {
    return this.isAwait(op) && this.sites.get(op.site)?.app === true
  }

  /** @param {AsyncOp} op an operation of the app's, not Node's bookkeeping */
  isWork (op) {
    return !BOOKKEEPING.has(op.type) && !this.isAwait(op)
  }

  /**
   * The line a site is at, as a key: the same line reached from different
   * callers is one place.
   * @param {number} site
   */
  placeOf (site) {
    const frame = this.sites.get(site)?.frames[0]
    return frame ? `${frame.file}:${frame.line}:${frame.column}` : `#${site}`
  }

  /** @param {number} site the function that code at `site` is in: its name and file */
  functionOf (site) {
    const frame = this.sites.get(site)?.frames[0]
    return frame ? `${frame.fn}\n${frame.file}` : null
  }

  /**
   * Chains of steps: the awaits of one call of an async function, in order,
   * and the links of a `.then` chain.
   * @returns {Step[][]}
   */
  chains () {
    const awaits = this.request.ops.filter((op) => this.isAppAwait(op))
    /** Awaits by the operation whose continuation made them. @type {Map<number, AsyncOp[]>} */
    const byExec = new Map()
    /** `.then` promises by the promise they are chained on. @type {Map<number, AsyncOp>} */
    const byTrigger = new Map()
    for (const op of awaits) {
      const list = byExec.get(op.exec)
      if (list) list.push(op)
      else byExec.set(op.exec, [op])
      if (!byTrigger.has(op.trigger)) byTrigger.set(op.trigger, op)
    }
    /** @type {Map<AsyncOp, AsyncOp>} */
    const next = new Map()
    /** @type {Set<AsyncOp>} */
    const hasPrevious = new Set()
    const link = (/** @type {AsyncOp} */ from, /** @type {AsyncOp} */ to) => {
      next.set(from, to)
      hasPrevious.add(to)
    }
    for (const op of awaits) {
      // An async function: its next await was made by this await's continuation, in the same function.
      const fn = this.functionOf(op.site)
      const following = byExec.get(op.id)?.find((o) => !hasPrevious.has(o) && this.functionOf(o.site) === fn)
      if (following) {
        link(op, following)
        continue
      }
      // A .then chain: the next link waits on this one.
      const chained = byTrigger.get(op.id)
      if (chained && chained.exec === op.exec && !hasPrevious.has(chained)) link(op, chained)
    }
    /** @type {Step[][]} */
    const chains = []
    for (const first of awaits) {
      if (hasPrevious.has(first)) continue
      /** @type {AsyncOp[]} */
      const ops = []
      for (let op = /** @type {AsyncOp | undefined} */ (first); op; op = next.get(op)) ops.push(op)
      const steps = this.steps(ops, next)
      if (steps.length > 0) chains.push(steps)
    }
    return chains
  }

  /**
   * @param {AsyncOp[]} ops a chain's promises, in order
   * @param {Map<AsyncOp, AsyncOp>} next
   * @returns {Step[]}
   */
  steps (ops, next) {
    /** @type {Step[]} */
    const steps = []
    let resumedAt = -Infinity
    /** @type {AsyncOp | null} */
    let previous = null
    for (const op of ops) {
      const following = next.get(op)
      let step
      if (following && following.trigger === op.id) {
        // A .then link: the work is what its callback started, and it ends when the link resolves.
        step = op.before >= 0 && op.resolved >= 0 && this.startedIn(op) ? { start: op.before, end: op.resolved } : null
      } else if (previous && op.trigger === previous.id) {
        // The last link of a .then chain: what it waited for was the step of the link before.
        step = null
      } else {
        const awaited = this.byId.get(op.trigger)
        const end = awaited ? this.settled(awaited) : op.before
        step = { start: awaited ? awaited.created : op.created, end: end >= 0 ? end : op.before }
      }
      if (step && step.end >= 0 && step.end - step.start >= MIN_STEP_MS) {
        steps.push({ op, site: op.site, place: this.placeOf(op.site), start: step.start, end: step.end, serial: step.start >= resumedAt - 0.05 })
      }
      if (op.before >= 0) resumedAt = op.before
      previous = op
    }
    if (steps.length > 0) steps[0].serial = true
    return steps
  }

  /** @param {AsyncOp} op whether its continuation started work of the app's */
  startedIn (op) {
    if (!this.workExecs) {
      this.workExecs = new Set()
      for (const o of this.request.ops) if (this.isWork(o)) this.workExecs.add(o.exec)
    }
    return this.workExecs.has(op.id)
  }
}
