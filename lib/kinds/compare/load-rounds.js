import { compareRounds } from '../../stats/paired.js'
import { comparisonEntry } from '../../stats/comparison.js'

/**
 * dyno compare --load: two versions of a server loaded in the same rounds,
 * compared round by round on requests per second and on p50 and p99
 * latency. A round's two loads ran minutes apart at most, on the same
 * machine, with the same flags, so each metric is paired by round (Student's
 * t-test on the per-round log ratios, lib/stats/paired.js). Pure.
 *
 * @typedef {import('../../load/summary.js').LoadResult} LoadResult
 * @typedef {import('./turns.js').Side} Side
 *
 * @typedef {import('../../stats/comparison.js').RoundFigures} RoundFigures
 *
 * @typedef {object} Round
 * @property {Side[]} order which side was loaded first
 * @property {RoundFigures} before
 * @property {RoundFigures} after
 *
 * @typedef {object} SideTotals over the rounds compared
 * @property {number} completed
 * @property {number} errors
 * @property {number} non2xx
 */

/** The metrics compared, as `--json` names them. */
export const LOAD_METRICS = /** @type {const} */ ([
  { name: 'requests', figure: 'requestsPerSecond', lowerIsFaster: false },
  { name: 'p50', figure: 'p50', lowerIsFaster: true },
  { name: 'p99', figure: 'p99', lowerIsFaster: true }
])

/**
 * @param {LoadResult} load
 * @returns {RoundFigures}
 */
export function roundFigures (load) {
  return {
    requestsPerSecond: load.duration > 0 ? load.requests.completed / load.duration : 0,
    p50: load.latency.percentiles['50'],
    p99: load.latency.percentiles['99'],
    completed: load.requests.completed,
    errors: load.errors.total,
    non2xx: load.non2xx
  }
}

/**
 * @param {Round[]} rounds
 * @param {{ alpha?: number }} [options]
 * @returns {{ comparisons: (import('../../stats/comparison.js').ComparisonEntry & { rounds: number })[], totals: { before: SideTotals, after: SideTotals } }}
 *   comparisons: none when no round had answers from both sides
 */
export function compareLoadRounds (rounds, options = {}) {
  const sides = { before: totals(rounds, 'before'), after: totals(rounds, 'after') }
  // A round where a side answered nothing has no ratio: with no round left, no ratio and no verdict.
  if (!rounds.some((r) => r.before.requestsPerSecond > 0 && r.after.requestsPerSecond > 0)) return { comparisons: [], totals: sides }
  const comparisons = LOAD_METRICS.map(({ name, figure, lowerIsFaster }) => {
    const before = rounds.map((r) => r.before[figure])
    const after = rounds.map((r) => r.after[figure])
    const test = compareRounds(before, after, options)
    // Geometric means of the rounds both sides answered: their quotient is the ratio beside them.
    const both = rounds.filter((r) => r.before[figure] > 0 && r.after[figure] > 0)
    return { ...comparisonEntry(name, geometricMean(both.map((r) => r.before[figure])), geometricMean(both.map((r) => r.after[figure])), test, { lowerIsFaster }), rounds: test.rounds }
  })
  return { comparisons, totals: sides }
}

/**
 * @param {Round[]} rounds @param {Side} side
 * @returns {SideTotals}
 */
function totals (rounds, side) {
  const sum = (/** @type {'completed' | 'errors' | 'non2xx'} */ key) => rounds.reduce((s, r) => s + r[side][key], 0)
  return { completed: sum('completed'), errors: sum('errors'), non2xx: sum('non2xx') }
}

/** @param {number[]} values all positive */
function geometricMean (values) {
  return values.length === 0 ? NaN : Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length)
}
