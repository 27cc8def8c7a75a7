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
 *
 * @typedef {object} RoundFigures what one load of one side measured
 * @property {number} requestsPerSecond answers per second over the load
 * @property {number} p50 latency, ms
 * @property {number} p99
 * @property {number} completed
 * @property {number} errors
 * @property {number} non2xx
 */

export const COMPARISON_SCHEMA_VERSION = 1

/**
 * @param {string} name
 * @param {number} before
 * @param {number} after
 * @param {{ ratio: number, low: number, high: number, p: number, significant: boolean }} test after against before
 * @param {{ lowerIsFaster?: boolean }} [options]
 * @returns {ComparisonEntry}
 */
export function comparisonEntry (name, before, after, test, options = {}) {
  const up = test.ratio > 1
  const verdict = !test.significant ? 'indistinguishable' : up !== (options.lowerIsFaster === true) ? 'faster' : 'slower'
  return { name, before, after, ratio: test.ratio, low: test.low, high: test.high, p: test.p, verdict }
}
