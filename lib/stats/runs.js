import { summarize } from './welch.js'
import { tCdf, tQuantile } from './t-distribution.js'

/**
 * Two sets of runs taken at different times (saved benchmark runs, before
 * and after a change). Within a run, processes vary around the run's mean;
 * between runs that mean itself moves, with whatever the machine was doing
 * at the time. A test on processes alone takes that movement for a
 * difference. Here the unit is the run: each run's mean is one measurement,
 * and its variance is what the runs themselves show when there are several
 * of a side, and otherwise (or when that is smaller) `betweenRuns` times the
 * variance of one process, plus the run's own standard error:
 *
 *   var(run mean) = (betweenRuns + 1/n) · σ²(process)
 *
 * All on the logs of the figures, so the ratio is of geometric means.
 */

/**
 * @typedef {object} SideSummary
 * @property {number} mean the mean over runs of each run's mean log
 * @property {number} varianceOfMean
 * @property {number} df degrees of freedom of that variance
 * @property {number} runs
 * @property {'runs' | 'processes'} from what the variance came from: the spread of the run means, or the processes scaled by betweenRuns
 */

/**
 * @param {number[][]} runs per run, one positive figure per process
 * @param {number} betweenRuns
 */
function side (runs, betweenRuns) {
  const logs = runs.filter((r) => r.length > 0).map((r) => summarize(r.map(Math.log)))
  const k = logs.length
  const spread = logs.filter((s) => s.n > 1)
  const df = spread.reduce((sum, s) => sum + s.n - 1, 0)
  const within = df > 0 ? spread.reduce((sum, s) => sum + (s.n - 1) * s.variance, 0) / df : NaN
  const meanN = k / logs.reduce((sum, s) => sum + 1 / s.n, 0)
  const means = summarize(logs.map((s) => s.mean))
  return { k, mean: means.mean, squares: k > 1 ? means.variance * (k - 1) : 0, modelled: (betweenRuns + 1 / meanN) * within, df }
}

/**
 * b against a: the ratio of their geometric means, its interval and p
 * (Welch's t on the two sides' means, Welch–Satterthwaite degrees of
 * freedom). Where a side has several runs, the spread of run means (pooled
 * over both sides) replaces the modelled variance when it is larger.
 * @param {number[][]} a @param {number[][]} b per run, per process
 * @param {{ alpha?: number, betweenRuns: number }} options
 * @returns {import('./welch.js').Comparison & { a: SideSummary, b: SideSummary }}
 */
export function compareRuns (a, b, options) {
  const alpha = options.alpha ?? 0.05
  const sides = [side(a, options.betweenRuns), side(b, options.betweenRuns)]
  const dfRuns = sides.reduce((sum, s) => sum + Math.max(0, s.k - 1), 0)
  const observed = dfRuns > 0 ? sides.reduce((sum, s) => sum + s.squares, 0) / dfRuns : NaN
  /** @type {SideSummary[]} */
  const [sa, sb] = sides.map((s) => (observed > s.modelled || (Number.isNaN(s.modelled) && dfRuns > 0)
    ? { mean: s.mean, varianceOfMean: observed / s.k, df: dfRuns, runs: s.k, from: /** @type {const} */ ('runs') }
    : { mean: s.mean, varianceOfMean: s.modelled / s.k, df: s.df, runs: s.k, from: /** @type {const} */ ('processes') }))
  const d = sb.mean - sa.mean
  const se2 = sa.varianceOfMean + sb.varianceOfMean
  // Both from the pooled runs: one estimate, not two.
  const df = sa.from === 'runs' && sb.from === 'runs' ? dfRuns : se2 ** 2 / (sa.varianceOfMean ** 2 / sa.df + sb.varianceOfMean ** 2 / sb.df)
  if (!(se2 > 0) || !(df > 0)) {
    return { ratio: Math.exp(d), low: NaN, high: NaN, p: NaN, significant: false, verdict: 'indistinguishable', a: sa, b: sb }
  }
  const se = Math.sqrt(se2)
  const p = Math.min(1, 2 * tCdf(-Math.abs(d / se), df))
  const critical = tQuantile(1 - alpha / 2, df)
  const half = critical * se
  const significant = p < alpha
  return { ratio: Math.exp(d), low: Math.exp(d - half), high: Math.exp(d + half), p, significant, critical, verdict: !significant ? 'indistinguishable' : d > 0 ? 'higher' : 'lower', a: sa, b: sb }
}
