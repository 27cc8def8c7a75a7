'use strict'
/**
 * The app's HTTP requests whose handler has not ended its response yet,
 * counted for the memory readings dyno takes after a load: a request still
 * at work (a query of 20,000 rows under way, a response being built) holds
 * memory it lets go of once it ends, which is neither a leak nor growth.
 *
 * A request the client gave up on counts until its handler ends the
 * response too (`writableEnded`): Node publishes no finish for it, and the
 * handler may still hold what it read. The responses are kept in a list
 * pruned of ended ones whenever it doubles, so the list costs one push a
 * request and keeps few ended responses alive.
 *
 * The main thread installs it once per process; the agent's worker reads the
 * count through its inspector session (see settle.cjs), with how long ago
 * the event loop last turned: the inspector answers a blocked loop too (V8
 * runs its commands between two instructions of the app's), but no heap
 * snapshot or GC that dyno asks for then ever ends.
 */
const KEY = Symbol.for('dyno.openRequests')
const MIN_PRUNE = 64
/** How often a timer marks that the event loop turned. */
const TURN_MS = 250

/** @param {import('./installed.cjs').Installed} installed */
function watchOpenRequests (installed) {
  const global = /** @type {any} */ (globalThis)
  if (typeof global[KEY] === 'function') return
  /** @type {{ writableEnded: boolean }[]} */
  let responses = []
  let pruneAt = MIN_PRUNE
  const prune = () => {
    responses = responses.filter((r) => !r.writableEnded)
    pruneAt = Math.max(MIN_PRUNE, responses.length * 2)
  }
  installed.subscribe('http.server.request.start', (message) => {
    responses.push(/** @type {any} */ (message).response)
    if (responses.length > pruneAt) prune()
  })
  let turned = performance.now()
  installed.repeat(() => { turned = performance.now() }, TURN_MS)
  /** @returns {[open: number, sinceTurnMs: number]} */
  const count = () => {
    prune()
    return [responses.length, performance.now() - turned]
  }
  installed.defineGlobal(KEY, count)
}

module.exports = { watchOpenRequests, KEY_EXPRESSION: "globalThis[Symbol.for('dyno.openRequests')]" }
