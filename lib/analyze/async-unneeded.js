/**
 * Unneeded async: a function declared `async` that returns without awaiting
 * still makes a promise on every call and settles it, and its caller's
 * `await` waits a turn of the microtask queue for it. Called once a request
 * that costs nothing; called for each of a thousand items, it does.
 *
 * In a trace, such a call is a promise the app's code made (not an await)
 * at the start of an async function (V8 makes an async function's promise as
 * the function is entered, at its parameters), settled in the same turn it
 * was made in: nothing was awaited in between. Whether the place is the
 * start of an async function the source says (see isAsyncFunctionStart).
 *
 * @typedef {import('./async-data.js').AsyncOp} AsyncOp
 * @typedef {import('./async-request.js').RequestGraph} RequestGraph
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
 * @returns {Map<number, number>} calls by the site of the function's start
 */
export function unneededAsyncCalls (graph, isAsyncStart) {
  /** @type {Map<number, number>} */
  const calls = new Map()
  /** @type {Map<number, boolean>} */
  const known = new Map()
  for (const op of graph.request.ops) {
    if (op.type !== 'PROMISE' || graph.isAwait(op) || op.resolved < 0 || op.resolvedBy !== op.exec) continue
    let start = known.get(op.site)
    if (start === undefined) {
      const site = graph.sites.get(op.site)
      const frame = site?.frames[0]
      start = site?.app === true && site.own && frame !== undefined && isAsyncStart(frame.file, frame.line, frame.column)
      known.set(op.site, start)
    }
    if (start) calls.set(op.site, (calls.get(op.site) ?? 0) + 1)
  }
  return calls
}

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
