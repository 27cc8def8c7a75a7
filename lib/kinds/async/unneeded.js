/**
 * Unneeded async: a function declared `async` that returns without awaiting
 * still makes a promise on every call and settles it, and its caller's
 * `await` waits a turn of the microtask queue for it. Called once a request
 * that costs nothing; called for each of a thousand items, it does.
 *
 * In a trace, such a call is a promise the app's code made (not an await)
 * at the start of an async function (V8 makes an async function's promise as
 * the function is entered, at its parameters), settled in the same turn it
 * was made in: nothing was awaited in between; or settled after awaits that
 * each waited on a value already at hand (`await 0`, `await cached`): a turn
 * of the microtask queue each, for nothing. Whether the place is the start
 * of an async function the source says (see isAsyncFunctionStart).
 *
 * @typedef {import('./data.js').AsyncOp} AsyncOp
 * @typedef {import('./request.js').RequestGraph} RequestGraph
 *
 * @typedef {(file: string, line: number, column: number) => boolean} AsyncStartTest
 *   whether the source at a place is the start of an async function
 */

/** Calls a request from which a function is worth a finding: it runs many times per request. */
export const UNNEEDED_MIN_CALLS = 10

/**
 * The calls of each async function that settled without awaiting, in one request.
 * @param {RequestGraph} graph
 * @param {AsyncStartTest} isAsyncStart
 * @returns {Map<number, { calls: number, atHand: boolean }>} by the site of the function's start: its calls, and
 *   whether they awaited values at hand (rather than nothing)
 */
export function unneededAsyncCalls (graph, isAsyncStart) {
  /** @type {Map<number, { calls: number, atHand: boolean }>} */
  const calls = new Map()
  /** @type {Map<number, boolean>} */
  const known = new Map()
  for (const op of graph.request.ops) {
    if (op.type !== 'PROMISE' || graph.isAwait(op) || op.resolved < 0) continue
    const atHand = op.resolvedBy !== op.exec
    if (atHand && !awaitedOnlyValuesAtHand(graph, op)) continue
    let start = known.get(op.site)
    if (start === undefined) {
      const site = graph.sites.get(op.site)
      const frame = site?.frames[0]
      start = site?.app === true && site.own && frame !== undefined && isAsyncStart(frame.file, frame.line, frame.column)
      known.set(op.site, start)
    }
    if (!start) continue
    const seen = calls.get(op.site)
    if (seen) {
      seen.calls++
      seen.atHand ||= atHand
    } else {
      calls.set(op.site, { calls: 1, atHand })
    }
  }
  return calls
}

/**
 * Whether the call whose promise is `call` settled after awaits that each
 * waited on a promise already settled when awaited: walked back from the
 * await that settled it, await by await, to the call's own run.
 * @param {RequestGraph} graph
 * @param {AsyncOp} call
 */
function awaitedOnlyValuesAtHand (graph, call) {
  let step = graph.byId.get(call.resolvedBy)
  for (let depth = 0; step !== undefined && depth < MAX_AWAITS; depth++) {
    if (!graph.isAwait(step)) return false
    const awaited = graph.byId.get(step.trigger)
    if (awaited === undefined || awaited.resolved < 0 || awaited.resolved > step.created + AT_HAND_MS) return false
    if (step.exec === call.exec) return true
    step = graph.byId.get(step.exec)
  }
  return false
}

/** The most awaits of one call followed back. */
const MAX_AWAITS = 64
/** A promise settled no later than this after the await on it was made was at hand (the times are rounded to 0.01 ms). */
const AT_HAND_MS = 0.01

/**
 * Whether the text of a line before `column` ends with the head of an async
 * function, `async function name ` or `async name ` (a method), V8 placing
 * an async function's promise at its parameters; or starts one there, an
 * arrow function's promise being placed at its `async`.
 * @param {string | null} lineText
 * @param {number} column 1-based
 */
export function isAsyncFunctionStart (lineText, column) {
  if (lineText === null) return false
  // An arrow function's promise is placed at its `async`.
  if (/^async\b/.test(lineText.slice(column - 1))) return true
  return /\basync\s+(?:function\b\s*\*?\s*)?(?:(?:static\s+|get\s+|set\s+)?[\w$#]+\s*)?$/.test(lineText.slice(0, column - 1))
}
