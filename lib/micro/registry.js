/**
 * The cases a benchmark file declares. Kept on globalThis under a registered
 * symbol so that a file importing dyno/micro through another path (a linked
 * or second copy of dyno) still fills the one list the worker reads.
 */

/**
 * @typedef {object} CaseOptions
 * @property {() => any} [setup] builds the data the case works on, outside the timed code; its result (awaited) is passed to the case on every call
 * @property {Function | Function[] | Record<string, Function>} [inspect] functions whose V8 optimization status to report after the run (the function under test, when the case only wraps it)
 *
 * @typedef {object} DeclaredCase
 * @property {string} name
 * @property {string} group '' outside any group
 * @property {(state: any) => any} fn
 * @property {CaseOptions} options
 */

const KEY = Symbol.for('dyno.micro.registry')

/** @returns {{ cases: DeclaredCase[], group: string | null, problems: { code: string, message: string }[] }} */
export function registry () {
  const store = /** @type {Record<symbol, any>} */ (globalThis)
  store[KEY] ??= { cases: [], group: null, problems: [] }
  return store[KEY]
}

/** Set by the worker and the listing process: `run()` in a benchmark file then does nothing. */
export const WORKER_ENV = 'DYNO_MICRO_WORKER'
