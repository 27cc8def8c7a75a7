'use strict'
/**
 * From the agent's worker: wait until the app's requests in flight have
 * ended (see open-requests.cjs), or `limitMs` has passed, before a reading
 * that must not count their memory (a full GC after the load, a heap
 * snapshot after a round).
 */
const { KEY_EXPRESSION } = require('./open-requests.cjs')

const POLL_MS = 50

/**
 * @param {import('./inspector-session.cjs').InspectorSession} session to the main thread
 * @param {number} limitMs
 * @returns {Promise<{ inFlight: number, waitedMs: number }>} inFlight: requests still at work when it gave up; -1 when unknown
 */
async function untilSettled (session, limitMs) {
  const started = performance.now()
  for (;;) {
    const inFlight = await openRequests(session)
    const waitedMs = Math.round(performance.now() - started)
    if (inFlight <= 0 || waitedMs >= limitMs) return { inFlight, waitedMs }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, limitMs - waitedMs)))
  }
}

/** @param {import('./inspector-session.cjs').InspectorSession} session @returns {Promise<number>} */
async function openRequests (session) {
  try {
    const { result } = await session.post('Runtime.evaluate', { expression: `typeof ${KEY_EXPRESSION} === 'function' ? ${KEY_EXPRESSION}() : -1`, returnByValue: true, silent: true })
    return result && typeof result.value === 'number' ? result.value : -1
  } catch {
    return -1
  }
}

module.exports = { untilSettled }
