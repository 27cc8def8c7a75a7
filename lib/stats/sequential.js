import { summarize } from './welch.js'

/**
 * An interval for the mean of paired log ratios that stays valid however
 * often it is looked at: a confidence sequence. Rounds run until the
 * interval is narrow enough, and a t-test re-run after every round would
 * call identical versions different far more often than 5% (it gets as
 * many chances as there are rounds). This one does not: over every round
 * of a run, the chance that the interval ever leaves out the true mean is
 * at most `alpha`.
 *
 * It is the set of means not rejected by the Bayes factor of the one-sample
 * t-test with a normal prior on the standardized effect (variance `g`) and
 * the right-Haar prior on the spread. That Bayes factor is a test
 * martingale under the null (the likelihood ratio of the scale-invariant
 * reduction of the data), so by Ville's inequality it exceeds 1/alpha at
 * any round with chance at most alpha. Its boundary on |t| has a closed
 * form, so the interval is the t interval with a wider critical value:
 * infinite before the sixth value, 3.4 at 20 and 3.2 at 50 (the t
 * quantile: 2.1 and 2.0), slowly growing again past a hundred. Pure.
 *
 * References: Lai (1976), "On confidence sequences"; Pérez-Ortiz, Lardy,
 * de Heide and Grünwald (2024), "E-statistics, group invariance and anytime
 * valid testing".
 */

/**
 * The prior variance of the standardized effect: the value that keeps the
 * interval narrowest around 20 to 60 rounds, where runs on a noisy machine
 * end (n = 6 is the first with a finite interval).
 */
export const MIXTURE_VARIANCE = 0.5

/**
 * The Bayes factor of "mean ≠ 0" against "mean = 0" for a one-sample t
 * statistic over n values, the effect in units of the spread drawn from
 * N(0, g).
 * @param {number} t @param {number} n @param {number} [g]
 */
export function bayesFactor (t, n, g = MIXTURE_VARIANCE) {
  const df = n - 1
  const spread = 1 + n * g
  // Its limit as |t| grows: values with no spread at all are only so much evidence.
  if (!Number.isFinite(t)) return Math.pow(spread, df / 2)
  return Math.pow(spread, -0.5) * Math.pow((1 + t * t / df) / (1 + t * t / (df * spread)), (df + 1) / 2)
}

/**
 * The |t| beyond which the Bayes factor reaches 1/alpha after n values:
 * the critical value of the confidence sequence. Infinity while n is too
 * small for any t to get there.
 * @param {number} n @param {number} [alpha] @param {number} [g]
 */
export function sequentialCritical (n, alpha = 0.05, g = MIXTURE_VARIANCE) {
  if (n < 2) return Infinity
  const df = n - 1
  const spread = 1 + n * g
  const k = Math.pow(Math.sqrt(spread) / alpha, 2 / (df + 1))
  if (k >= spread) return Infinity
  return Math.sqrt(df * (k - 1) / (1 - k / spread))
}

/**
 * The confidence sequence of the mean after the values seen so far, and
 * its p-value of "the mean is 0": 1 / the Bayes factor now, which may be
 * read after any round (it is below alpha exactly when the interval leaves
 * out 0).
 * @param {ArrayLike<number>} values
 * @param {{ alpha?: number, g?: number }} [options]
 * @returns {{ n: number, mean: number, se: number, critical: number, low: number, high: number, p: number }}
 *   se: the standard error of the mean; low and high ±Infinity while the interval is unbounded
 */
export function confidenceSequence (values, options = {}) {
  const alpha = options.alpha ?? 0.05
  const g = options.g ?? MIXTURE_VARIANCE
  const { n, mean, variance } = summarize(values)
  if (n < 2) return { n, mean, se: NaN, critical: Infinity, low: -Infinity, high: Infinity, p: 1 }
  const se = Math.sqrt(variance / n)
  const critical = sequentialCritical(n, alpha, g)
  // No spread at all (recorded or synthetic data): a zero mean is no change, any other a certain one.
  const still = se <= Math.abs(mean) * 1e-12 || se === 0
  const t = still ? (mean === 0 ? 0 : Infinity) : mean / se
  const half = still ? (critical === Infinity ? Infinity : 0) : critical * se
  return { n, mean, se, critical, low: mean - half, high: mean + half, p: Math.min(1, 1 / bayesFactor(t, n, g)) }
}
