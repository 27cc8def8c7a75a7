import { performance } from 'node:perf_hooks'
/** The longest delay a Node timer keeps (about 24.8 days); a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * Calls `fn` once `performance.now()` reaches `at`, however far away: a timer
 * keeps at most MAX_TIMER_MS, and may fire a little before its time (it
 * counts from the event loop's cached clock), so it is armed again for what
 * is left.
 * @param {() => void} fn @param {number} at
 * @returns {{ cancel: () => void }}
 */
export function setDeadline (fn, at) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer
  const arm = () => {
    const left = at - performance.now()
    if (left <= 0) fn()
    else timer = setTimeout(arm, Math.min(MAX_TIMER_MS, Math.ceil(left)))
  }
  arm()
  return { cancel: () => clearTimeout(timer) }
}
