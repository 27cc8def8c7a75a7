'use strict'
/**
 * From the agent's worker: wait until the app's requests in flight have
 * ended (see open-requests.cjs), or `limitMs` has passed, before a reading
 * that must not count their memory (a full GC after the load, a heap
 * snapshot after a round).
 */
const { KEY_EXPRESSION } = require('./open-requests.cjs')

const POLL_MS = 50
/** An event loop that has not turned for this long is blocked. */
const BLOCKED_MS = 5000
/** One that has not turned for this long may be: it is watched until it turns or is blocked. */
const STALE_MS = 1000

/**
 * @param {import('./inspector-session.cjs').InspectorSession} session to the main thread
 * @param {number} limitMs
 * @returns {Promise<{ inFlight: number, waitedMs: number, blocked: boolean }>} inFlight: requests still at work when it gave up,
 *   -1 when unknown; blocked: the event loop has not turned for BLOCKED_MS (no snapshot or GC would end)
 */
async function untilSettled (session, limitMs) {
  const started = performance.now()
  for (;;) {
    const { open, sinceTurnMs } = await openRequests(session)
    const waitedMs = Math.round(performance.now() - started)
    if (sinceTurnMs >= BLOCKED_MS) return { inFlight: open, waitedMs, blocked: true }
    // A loop that has stopped turning a while is waited for, past the limit, until it turns or is blocked.
    if (sinceTurnMs < STALE_MS && (open <= 0 || waitedMs >= limitMs)) return { inFlight: open, waitedMs, blocked: false }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}

/**
 * The app's requests in flight, and how long ago its loop turned. Some Node
 * lines answer the inspector between two instructions of a blocked loop,
 * others only once it turns: no answer within BLOCKED_MS is a blocked loop too.
 * @param {import('./inspector-session.cjs').InspectorSession} session
 * @returns {Promise<{ open: number, sinceTurnMs: number }>} open -1 when unknown
 */
async function openRequests (session) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer
  const unanswered = new Promise((resolve) => { timer = setTimeout(() => resolve({ open: -1, sinceTurnMs: Infinity }), BLOCKED_MS) })
  const asked = session.post('Runtime.evaluate', { expression: `typeof ${KEY_EXPRESSION} === 'function' ? ${KEY_EXPRESSION}() : null`, returnByValue: true, silent: true })
    .then(({ result }) => {
      const value = result && result.value
      return Array.isArray(value) ? { open: value[0], sinceTurnMs: value[1] } : { open: -1, sinceTurnMs: 0 }
    }, () => ({ open: -1, sinceTurnMs: 0 }))
  try {
    return /** @type {{ open: number, sinceTurnMs: number }} */ (await Promise.race([asked, unanswered]))
  } finally {
    clearTimeout(timer)
  }
}

module.exports = { untilSettled }
