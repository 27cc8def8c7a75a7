import { mean } from './describe.js'
import { tCdf, tQuantile } from './t-distribution.js'

/**
 * Two independent groups of measurements (per-process means of two benchmark
 * cases, or per-second request rates of two load runs): is the difference
 * real, and how large is it?
 */

/**
 * @typedef {object} GroupSummary
 * @property {number} n
 * @property {number} mean
 * @property {number} variance sample variance (n - 1)
 */

/** @param {ArrayLike<number>} xs @returns {GroupSummary} */
export function summarize (xs) {
  const m = mean(xs)
  let sum = 0
  for (let i = 0; i < xs.length; i++) sum += (xs[i] - m) ** 2
  return { n: xs.length, mean: m, variance: xs.length > 1 ? sum / (xs.length - 1) : NaN }
}

/**
 * Welch's unequal-variances t-test, two-sided, as Node core's
 * benchmark/compare.R uses. With fewer than two values in a group there is no
 * variance to test against, and the p-value is NaN.
 * @param {GroupSummary} a @param {GroupSummary} b
 * @returns {{ t: number, df: number, p: number }}
 */
export function welchTest (a, b) {
  const va = a.variance / a.n
  const vb = b.variance / b.n
  const se2 = va + vb
  if (!(a.n > 1 && b.n > 1) || Number.isNaN(se2)) return { t: NaN, df: NaN, p: NaN }
  if (se2 === 0) {
    // No spread at all (recorded or synthetic data): equal means are the same, unequal ones certainly differ.
    return a.mean === b.mean ? { t: 0, df: a.n + b.n - 2, p: 1 } : { t: Infinity, df: a.n + b.n - 2, p: 0 }
  }
  const t = (a.mean - b.mean) / Math.sqrt(se2)
  const df = welchDf(a, b)
  return { t, df, p: Math.min(1, 2 * tCdf(-Math.abs(t), df)) }
}

/**
 * Welch–Satterthwaite degrees of freedom.
 * @param {GroupSummary} a @param {GroupSummary} b
 */
export function welchDf (a, b) {
  const va = a.variance / a.n
  const vb = b.variance / b.n
  const denominator = (va * va) / (a.n - 1) + (vb * vb) / (b.n - 1)
  return denominator === 0 ? a.n + b.n - 2 : (va + vb) ** 2 / denominator
}

/**
 * Confidence interval for the ratio of two means, mean(a) / mean(b), by
 * Fieller's theorem for independent groups. Unlike the delta method it stays
 * honest when b's mean is uncertain: the interval is asymmetric, and when b's
 * mean cannot be told apart from zero it is unbounded (high = Infinity).
 * @param {GroupSummary} a @param {GroupSummary} b
 * @param {number} [confidence] 0..1
 * @returns {{ ratio: number, low: number, high: number }}
 */
export function ratioInterval (a, b, confidence = 0.95) {
  const ratio = a.mean / b.mean
  if (!(a.n > 1 && b.n > 1)) return { ratio, low: NaN, high: NaN }
  const va = a.variance / a.n
  const vb = b.variance / b.n
  const t = tQuantile(1 - (1 - confidence) / 2, welchDf(a, b))
  const g = (t * t * vb) / (b.mean * b.mean)
  if (!(g < 1)) return { ratio, low: 0, high: Infinity }
  const half = (t / Math.abs(b.mean)) * Math.sqrt(va * (1 - g) + ratio * ratio * vb)
  return { ratio, low: (ratio - half) / (1 - g), high: (ratio + half) / (1 - g) }
}

/**
 * @typedef {object} Comparison
 * @property {number} ratio mean(b) / mean(a)
 * @property {number} low lower end of its confidence interval
 * @property {number} high upper end
 * @property {number} p Welch's two-sided p-value
 * @property {boolean} significant p < alpha
 * @property {'higher' | 'lower' | 'indistinguishable'} verdict how b's mean stands against a's
 * @property {number} [critical] how many standard errors the interval reaches either side (1.96 when not given)
 */

/**
 * Everything a report says about b against a.
 * @param {ArrayLike<number>} a @param {ArrayLike<number>} b
 * @param {{ alpha?: number }} [options]
 * @returns {Comparison}
 */
export function compareGroups (a, b, options = {}) {
  const alpha = options.alpha ?? 0.05
  const sa = summarize(a)
  const sb = summarize(b)
  const { p } = welchTest(sb, sa)
  const { ratio, low, high } = ratioInterval(sb, sa, 1 - alpha)
  const significant = p < alpha
  return { ratio, low, high, p, significant, verdict: !significant ? 'indistinguishable' : sb.mean > sa.mean ? 'higher' : 'lower' }
}
