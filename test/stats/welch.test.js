import assert from 'node:assert/strict'
import { test } from 'node:test'
import { incompleteBeta, logGamma, tCdf, tQuantile } from '../../lib/stats/t-distribution.js'
import { compareGroups, ratioInterval, summarize, welchTest } from '../../lib/stats/welch.js'
import { seededRandom } from '../helpers/random.js'

/** @param {number} actual @param {number} expected @param {number} tolerance */
function near (actual, expected, tolerance) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`)
}

test('log-gamma and the incomplete beta function match known values', () => {
  near(logGamma(1), 0, 1e-12)
  near(logGamma(5), Math.log(24), 1e-12)
  near(logGamma(0.5), Math.log(Math.sqrt(Math.PI)), 1e-12)
  near(incompleteBeta(0.5, 2, 2), 0.5, 1e-12)
  near(incompleteBeta(0.3, 1, 1), 0.3, 1e-12)
  near(incompleteBeta(0.2, 2, 3), 0.1808, 1e-12) // 1 - (1-x)^4 - 4x(1-x)^3
})

test('t quantiles match the printed tables', () => {
  near(tQuantile(0.975, 1), 12.7062047, 1e-6)
  near(tQuantile(0.975, 5), 2.5705818, 1e-6)
  near(tQuantile(0.975, 10), 2.2281389, 1e-6)
  near(tQuantile(0.975, 30), 2.0422725, 1e-6)
  near(tQuantile(0.995, 20), 2.8453397, 1e-6)
  near(tQuantile(0.025, 10), -2.2281389, 1e-6)
  near(tQuantile(0.975, 1e6), 1.959966, 1e-5)
  near(tCdf(2, 5), 0.9490303, 1e-6)
  near(tCdf(0, 7.3), 0.5, 1e-12)
  near(tCdf(tQuantile(0.9, 13.7), 13.7), 0.9, 1e-10)
})

test("Welch's test reproduces the textbook example", () => {
  // The classic pair with unequal variances: t = -2.46, df = 24.98, p = 0.021.
  const a = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4]
  const b = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4]
  const { t, df, p } = welchTest(summarize(a), summarize(b))
  near(t, -2.46, 0.005)
  near(df, 24.98, 0.01)
  near(p, 0.021, 0.0005)
})

test('Welch: degenerate groups', () => {
  assert.ok(Number.isNaN(welchTest(summarize([1]), summarize([1, 2])).p))
  assert.equal(welchTest(summarize([3, 3, 3]), summarize([3, 3])).p, 1)
  assert.equal(welchTest(summarize([3, 3, 3]), summarize([4, 4])).p, 0)
})

test("Fieller's interval: exact when the denominator is certain, asymmetric and then unbounded as it blurs", () => {
  const a = { n: 10, mean: 20, variance: 4 }
  const certain = ratioInterval(a, { n: 10, mean: 10, variance: 0 })
  const half = tQuantile(0.975, 9) * Math.sqrt(4 / 10) / 10
  near(certain.low, 2 - half, 1e-9)
  near(certain.high, 2 + half, 1e-9)
  const blurred = ratioInterval(a, { n: 10, mean: 10, variance: 25 })
  assert.ok(blurred.high - blurred.ratio > blurred.ratio - blurred.low, 'skewed upwards')
  const unbounded = ratioInterval(a, { n: 3, mean: 1, variance: 4 })
  assert.equal(unbounded.high, Infinity)
})

test('compareGroups: 95% intervals cover the true ratio about 95% of the time; A/A is rarely significant', () => {
  // A seeded generator makes this deterministic; with 4000 trials the rates sit within ±1% of 5%.
  const { normal } = seededRandom(42)
  const trials = 4000
  let covered = 0
  let falsePositives = 0
  for (let i = 0; i < trials; i++) {
    const a = Array.from({ length: 8 }, () => 100 + 5 * normal())
    const b = Array.from({ length: 8 }, () => 100 + 9 * normal())
    const c = compareGroups(a, b)
    if (c.low <= 1 && c.high >= 1) covered++
    if (c.significant) falsePositives++
  }
  near(covered / trials, 0.95, 0.015)
  near(falsePositives / trials, 0.05, 0.015)
})

test('compareGroups: a 10% difference is significant, with its direction', () => {
  const a = [100, 101, 99, 100.5, 99.5, 100.2]
  const b = a.map((x) => x * 1.1)
  const c = compareGroups(a, b)
  assert.equal(c.verdict, 'higher')
  near(c.ratio, 1.1, 1e-9)
  assert.ok(c.low > 1.08 && c.high < 1.12)
  assert.equal(compareGroups(b, a).verdict, 'lower')
})
