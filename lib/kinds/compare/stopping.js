import { confidenceSequence } from '../../stats/sequential.js'
import { logRatios, oneSampleTTest } from '../../stats/paired.js'

/**
 * When dyno compare --load has its answer. Rounds go on until the interval
 * of the requests-per-second ratio is as narrow as --precision asks, or
 * knows the change to within a quarter of its size (a change of 2x needs no
 * ±2.5%), or another round would pass --max-time. With --fail-if-slower,
 * the answer is the gate's instead: the rounds go on until the interval
 * lies wholly on one side of its limit (a narrow interval that still
 * straddles it has not answered), or --max-time. The interval is a
 * confidence sequence, so looking after every round costs nothing in false
 * alarms. With --rounds, the count is fixed and none of this applies. Pure.
 *
 * @typedef {import('./load-rounds.js').Round} Round
 *
 * @typedef {object} StopSettings
 * @property {number | null} rounds a fixed count, or null: until the answer is known
 * @property {number} precision the half-width wanted, as a fraction of the ratio (0.025 for ±2.5%)
 * @property {number} maxTimeMs
 * @property {number | null} failIfSlower the gate's percent, if there is one
 *
 * @typedef {'rounds' | 'precise' | 'clear' | 'gate' | 'time'} StopReason
 *   rounds: the fixed count is done; precise: the interval is within ±precision; clear: the change is known to
 *   within a quarter of its size; gate: the gate is settled; time: another round would pass --max-time
 *
 * @typedef {object} RunSoFar
 * @property {number} started rounds started, compared or not
 * @property {number} elapsedMs since the first round started
 */

/**
 * The length of a round's load when --load gives neither -d nor -a, in
 * seconds. Loaded side by side, a round's ratio spread by about the same
 * from half a second to two on a busy 2-core machine, and a round costs its
 * load plus a second to start and warm up the pair: rounds of a second
 * reached a given precision soonest (bench/compare-noise.js).
 */
export const ROUND_S = 1

/** --max-time's default, in seconds: enough for a 5% change on a noisy 2-core machine (bench/verify.js). */
export const DEFAULT_MAX_TIME_S = 180

/**
 * @param {Round[]} rounds the rounds compared so far
 * @param {RunSoFar} run
 * @param {StopSettings} settings
 * @returns {StopReason | null} null: run another round
 */
export function stopReason (rounds, run, settings) {
  if (settings.rounds !== null) return run.started >= settings.rounds ? 'rounds' : null
  const interval = requestsInterval(rounds)
  if (interval && settings.failIfSlower !== null) {
    const limit = Math.log(1 - settings.failIfSlower / 100)
    if (interval.high < limit || interval.low > limit) return 'gate'
  } else if (interval) {
    const half = (interval.high - interval.low) / 2
    if (half <= Math.log1p(settings.precision)) return 'precise'
    if (half <= Math.abs(interval.mean) / 4) return 'clear'
  }
  const perRound = run.started > 0 ? run.elapsedMs / run.started : 0
  return run.elapsedMs + perRound > settings.maxTimeMs ? 'time' : null
}

/**
 * The interval of the log ratio of requests per second, over the rounds
 * both sides answered: the confidence sequence, or with a fixed number of
 * rounds the t interval the verdict will use; null while it is unbounded.
 * @param {Round[]} rounds
 * @param {{ sequential?: boolean }} [options] true unless told otherwise
 * @returns {{ mean: number, low: number, high: number } | null}
 */
export function requestsInterval (rounds, options = {}) {
  const both = rounds.filter((r) => r.before.requestsPerSecond > 0 && r.after.requestsPerSecond > 0)
  const logs = logRatios(both.map((r) => r.before.requestsPerSecond), both.map((r) => r.after.requestsPerSecond))
  const interval = options.sequential === false ? oneSampleTTest(logs) : confidenceSequence(logs)
  return Number.isFinite(interval.low) && Number.isFinite(interval.high) ? interval : null
}
