import assert from 'node:assert/strict'
import { test } from 'node:test'
import { compareRounds, oneSampleTTest } from '../../lib/stats/paired.js'
import { tCdf, tQuantile } from '../../lib/stats/t-distribution.js'
import { compareGroups } from '../../lib/stats/welch.js'
import { seededRandom } from '../helpers/random.js'

/** @param {number} actual @param {number} expected @param {number} tolerance */
function near (actual, expected, tolerance) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`)
}

test('the paired t-test reproduces R on Student\'s sleep data', () => {
  // t.test(extra ~ group, data = sleep, paired = TRUE) in R:
  // t = -4.0621, df = 9, p-value = 0.002833, 95% CI -2.4598858 -0.7001142, mean difference -1.58
  const drug1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
  const drug2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]
  const r = oneSampleTTest(drug1.map((x, i) => x - drug2[i]))
  near(r.mean, -1.58, 1e-12)
  near(r.t, -4.0621, 5e-5)
  assert.equal(r.df, 9)
  near(r.p, 0.002833, 5e-7)
  near(r.low, -2.4598858, 1e-7)
  near(r.high, -0.7001142, 1e-7)
})

test('compareRounds: the geometric mean of per-round ratios, with exp() of the t interval', () => {
  // Per-round ratios 1.1, 1.05, 1.2, 1.1: log ratios by hand, then the interval with t(0.975, 3).
  const a = [100, 200, 50, 80]
  const b = [110, 210, 60, 88]
  const logs = [Math.log(1.1), Math.log(1.05), Math.log(1.2), Math.log(1.1)]
  const m = logs.reduce((s, x) => s + x, 0) / 4
  const sd = Math.sqrt(logs.reduce((s, x) => s + (x - m) ** 2, 0) / 3)
  const half = tQuantile(0.975, 3) * sd / 2
  const c = compareRounds(a, b)
  near(c.ratio, Math.exp(m), 1e-12)
  near(c.ratio, (1.1 * 1.05 * 1.2 * 1.1) ** 0.25, 1e-12)
  near(c.low, Math.exp(m - half), 1e-12)
  near(c.high, Math.exp(m + half), 1e-12)
  assert.equal(c.rounds, 4)
  assert.equal(c.verdict, 'higher')
  near(c.p, 2 * tCdf(-m / (sd / 2), 3), 1e-12) // t = 3.78 on 3 degrees of freedom: p = 0.0324
  near(c.p, 0.0324, 0.0001)
  assert.equal(compareRounds(b, a).verdict, 'lower')
})

test('compareRounds: rounds missing a figure are left out; too few rounds give no verdict', () => {
  const c = compareRounds([100, NaN, 50, 80], [110, 300, 60, 88])
  assert.equal(c.rounds, 3)
  const one = compareRounds([100], [110])
  assert.ok(Number.isNaN(one.p))
  assert.equal(one.significant, false)
  assert.equal(one.verdict, 'indistinguishable')
  assert.equal(compareRounds([5, 5, 5], [5, 5, 5]).p, 1)
  assert.equal(compareRounds([5, 5, 5], [6, 6, 6]).p, 0)
})

test('compareRounds: drift shared by a round cancels; A/A stays at 5% false positives', () => {
  // Simulated rounds, seeded: each round's machine speed drifts by ±30% (shared by its cases),
  // each process adds ±5% of its own. A 10% difference over 20 rounds is found by the paired
  // test, not by Welch's on the same numbers; identical cases are called different in about
  // 5% of 4000 trials.
  const { normal } = seededRandom(7)
  /** @param {number} rounds @param {number} ratio b's speed over a's @returns {[number[], number[]]} */
  const rounds = (rounds, ratio) => {
    const a = []
    const b = []
    for (let r = 0; r < rounds; r++) {
      const machine = Math.exp(0.3 * normal())
      a.push(1000 * machine * Math.exp(0.05 * normal()))
      b.push(1000 * ratio * machine * Math.exp(0.05 * normal()))
    }
    return [a, b]
  }
  const trials = 4000
  let falsePositives = 0
  let covered = 0
  for (let i = 0; i < trials; i++) {
    const c = compareRounds(...rounds(8, 1))
    if (c.significant) falsePositives++
    if (c.low <= 1 && c.high >= 1) covered++
  }
  near(falsePositives / trials, 0.05, 0.012)
  near(covered / trials, 0.95, 0.012)
  let paired = 0
  let welch = 0
  for (let i = 0; i < 200; i++) {
    const [a, b] = rounds(20, 1.1)
    if (compareRounds(a, b).verdict === 'higher') paired++
    if (compareGroups(a, b).verdict === 'higher') welch++
  }
  assert.ok(paired >= 190, `paired found it in ${paired} of 200`)
  assert.ok(welch <= 100, `Welch found it in ${welch} of 200`)
})
