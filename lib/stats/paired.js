import { summarize } from './welch.js'
import { tCdf, tQuantile } from './t-distribution.js'

/**
 * Paired measurements: two cases measured side by side in each round, so
 * that whatever the round shares (the machine's state at that time) cancels
 * in their ratio. The comparison is Student's one-sample t-test on the
 * per-round log ratios: a ratio that is the geometric mean over rounds, an
 * interval that is exp() of the t interval of the mean log ratio.
 */

/**
 * Student's t-test that the mean of `differences` is zero, two-sided, with
 * the confidence interval of that mean. With fewer than two values there is
 * no spread to test against, and p and the interval are NaN.
 * @param {ArrayLike<number>} differences
 * @param {number} [confidence] 0..1
 * @returns {{ n: number, mean: number, t: number, df: number, p: number, low: number, high: number, critical: number }}
 */
export function oneSampleTTest (differences, confidence = 0.95) {
  const { n, mean, variance } = summarize(differences)
  const df = n - 1
  if (n < 2) return { n, mean, t: NaN, df, p: NaN, low: NaN, high: NaN, critical: NaN }
  if (variance === 0) {
    // No spread at all (recorded or synthetic data): a zero mean is no difference, any other a certain one.
    return { n, mean, t: mean === 0 ? 0 : Math.sign(mean) * Infinity, df, p: mean === 0 ? 1 : 0, low: mean, high: mean, critical: tQuantile(1 - (1 - confidence) / 2, df) }
  }
  const se = Math.sqrt(variance / n)
  const t = mean / se
  const critical = tQuantile(1 - (1 - confidence) / 2, df)
  const half = critical * se
  return { n, mean, t, df, p: Math.min(1, 2 * tCdf(-Math.abs(t), df)), low: mean - half, high: mean + half, critical }
}

/**
 * b against a, round by round: `a[i]` and `b[i]` were measured in the same
 * round (both positive, such as ops/sec). Rounds where either is missing
 * (NaN, undefined) are left out.
 * @param {ArrayLike<number>} a
 * @param {ArrayLike<number>} b
 * @param {{ alpha?: number }} [options]
 * @returns {import('./welch.js').Comparison & { rounds: number }} ratio: the geometric mean of b[i] / a[i]
 */
export function compareRounds (a, b, options = {}) {
  const alpha = options.alpha ?? 0.05
  const test = oneSampleTTest(logRatios(a, b), 1 - alpha)
  const significant = test.p < alpha
  return {
    ratio: Math.exp(test.mean),
    low: Math.exp(test.low),
    high: Math.exp(test.high),
    p: test.p,
    significant,
    verdict: !significant ? 'indistinguishable' : test.mean > 0 ? 'higher' : 'lower',
    critical: test.critical,
    rounds: test.n
  }
}

/**
 * log(b[i] / a[i]) for each round where both are positive; the others are left out.
 * @param {ArrayLike<number>} a @param {ArrayLike<number>} b
 * @returns {number[]}
 */
export function logRatios (a, b) {
  const logs = []
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] > 0 && b[i] > 0) logs.push(Math.log(b[i] / a[i]))
  }
  return logs
}
