/**
 * One shape for every comparison dyno prints: micro --against, saved runs,
 * load before and after. `--json` of each is `{ schemaVersion, comparisons }`
 * with one entry per case or metric. Pure.
 *
 * @typedef {'faster' | 'slower' | 'indistinguishable'} Verdict
 *
 * @typedef {object} ComparisonEntry
 * @property {string} name the case (`group › name`) or the metric
 * @property {number} before the figure before: ops/sec, req/sec, ms
 * @property {number} after
 * @property {number} ratio after / before
 * @property {number} low its 95% interval
 * @property {number} high
 * @property {number} p
 * @property {Verdict} verdict for a latency, faster means lower
 * @property {number | null} detectable the smallest change, as a fraction (0.07 for 7%), that this
 *   measurement would have found 4 times in 5; null when the interval is unbounded
 *
 * @typedef {object} RoundFigures what one load of one side measured
 * @property {number} requestsPerSecond answers per second over the load
 * @property {number} p50 latency, ms
 * @property {number} p99
 * @property {number | null} cpuPerRequest the app's CPU time per answer, ms (null where the system does not say)
 * @property {number} completed
 * @property {number} errors
 * @property {number} non2xx
 */

export const COMPARISON_SCHEMA_VERSION = 1

/** The z of 80% power: a true change this many standard errors beyond the interval's edge is found 4 times in 5. */
const POWER_Z = 0.8416

/**
 * @param {string} name
 * @param {number} before
 * @param {number} after
 * @param {{ ratio: number, low: number, high: number, p: number, significant: boolean, critical?: number }} test after
 *   against before; critical: how many standard errors the interval reaches either side of the ratio (in logs)
 * @param {{ lowerIsFaster?: boolean }} [options]
 * @returns {ComparisonEntry}
 */
export function comparisonEntry (name, before, after, test, options = {}) {
  const up = test.ratio > 1
  const verdict = !test.significant ? 'indistinguishable' : up !== (options.lowerIsFaster === true) ? 'faster' : 'slower'
  return { name, before, after, ratio: test.ratio, low: test.low, high: test.high, p: test.p, verdict, detectable: detectableChange(test.low, test.high, test.critical) }
}

/**
 * The smallest change a measurement would have found 4 times in 5, from its
 * interval: a true change whose estimate lands, 4 times in 5, beyond the
 * interval's half-width from no change. In logs, so that 0.93x and 1.07x
 * count alike.
 * @param {number} low @param {number} high @param {number} [critical] the interval's half-width in standard errors
 * @returns {number | null}
 */
export function detectableChange (low, high, critical = 1.96) {
  if (!(low > 0) || !Number.isFinite(high) || !(critical > 0)) return null
  const half = (Math.log(high) - Math.log(low)) / 2
  return Math.expm1(half * (1 + POWER_Z / critical))
}

/**
 * The regression gate of --fail-if-slower: which comparisons are slower than
 * `percent` allows, with 95% confidence (the whole interval of the ratio
 * below 1 - percent), and which cannot tell (their interval reaches past
 * it, or has no end). Each comparison judged is a throughput (higher is
 * faster). It fails on the first kind only.
 * @param {ComparisonEntry[]} comparisons
 * @param {number} percent e.g. 5 for 5%
 * @returns {{ percent: number, failed: boolean, slower: string[], unsettled: string[] }} names of those comparisons
 */
export function slowerGate (comparisons, percent) {
  const limit = 1 - percent / 100
  const slower = comparisons.filter((c) => c.high < limit).map((c) => c.name)
  const unsettled = comparisons.filter((c) => !(c.high < limit) && !(c.low > limit && Number.isFinite(c.high))).map((c) => c.name)
  return { percent, failed: slower.length > 0, slower, unsettled }
}
