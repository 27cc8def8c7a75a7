import { compareRounds, logRatios } from '../../stats/paired.js'
import { confidenceSequence } from '../../stats/sequential.js'
import { comparisonEntry } from '../../stats/comparison.js'

/**
 * dyno compare --load: two versions of a server loaded in the same rounds,
 * compared round by round on requests per second, p50 and p99 latency, and
 * the app's CPU time per request. A round's two loads ran seconds apart, on
 * the same machine, with the same flags, so each metric is paired by round:
 * on the per-round log ratios, a confidence sequence when the rounds went on
 * until the answer was known (lib/stats/sequential.js), Student's t-test
 * when their number was fixed (lib/stats/paired.js). Pure.
 *
 * @typedef {import('../../load/summary.js').LoadResult} LoadResult
 * @typedef {import('./pair-round.js').Side} Side
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
  { name: 'p99', figure: 'p99', lowerIsFaster: true },
  { name: 'cpu', figure: 'cpuPerRequest', lowerIsFaster: true }
])

/**
 * What one version measured in a round.
 * @param {LoadResult} load
 * @param {number | null} [cpuMs] the CPU time the app's processes used during it
 * @returns {RoundFigures}
 */
export function roundFigures (load, cpuMs = null) {
  const completed = load.requests.completed
  return {
    requestsPerSecond: load.duration > 0 ? completed / load.duration : 0,
    p50: load.latency.percentiles['50'],
    p99: load.latency.percentiles['99'],
    cpuPerRequest: cpuMs !== null && completed > 0 ? cpuMs / completed : null,
    completed,
    errors: load.errors.total,
    non2xx: load.non2xx
  }
}

/**
 * @param {Round[]} rounds
 * @param {{ sequential?: boolean }} [options] sequential: the rounds went on until the answer was known, so
 *   the intervals must hold however many rounds were looked at
 * @returns {{ comparisons: (import('../../stats/comparison.js').ComparisonEntry & { rounds: number })[], totals: { before: SideTotals, after: SideTotals } }}
 *   comparisons: none when no round had answers from both sides; no CPU per request where the system does not say
 */
export function compareLoadRounds (rounds, options = {}) {
  const sides = { before: totals(rounds, 'before'), after: totals(rounds, 'after') }
  // A round where a side answered nothing has no ratio: with no round left, no ratio and no verdict.
  if (!rounds.some((r) => r.before.requestsPerSecond > 0 && r.after.requestsPerSecond > 0)) return { comparisons: [], totals: sides }
  const measured = LOAD_METRICS.filter(({ figure }) => rounds.every((r) => typeof r.before[figure] === 'number' && typeof r.after[figure] === 'number'))
  const comparisons = measured.map(({ name, figure, lowerIsFaster }) => {
    // A round where either side has no figure (it answered nothing) has no ratio.
    const both = rounds.filter((r) => Number(r.before[figure]) > 0 && Number(r.after[figure]) > 0)
    const before = both.map((r) => /** @type {number} */ (r.before[figure]))
    const after = both.map((r) => /** @type {number} */ (r.after[figure]))
    const test = options.sequential ? sequentialTest(before, after) : compareRounds(before, after)
    // Geometric means of the rounds both sides answered: their quotient is the ratio beside them.
    return { ...comparisonEntry(name, geometricMean(before), geometricMean(after), test, { lowerIsFaster }), rounds: test.rounds }
  })
  return { comparisons, totals: sides }
}

/**
 * The ratio after / before and its confidence sequence, from the per-round log ratios.
 * @param {number[]} before @param {number[]} after both positive, round by round
 */
function sequentialTest (before, after) {
  const cs = confidenceSequence(logRatios(before, after))
  return {
    ratio: Math.exp(cs.mean),
    low: Math.exp(cs.low),
    high: Math.exp(cs.high),
    p: cs.p,
    significant: cs.low > 0 || cs.high < 0,
    critical: cs.critical,
    rounds: cs.n
  }
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
