import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bayesFactor, confidenceSequence, sequentialCritical } from '../../lib/stats/sequential.js'
import { oneSampleTTest } from '../../lib/stats/paired.js'
import { tQuantile } from '../../lib/stats/t-distribution.js'
import { seededRandom } from '../helpers/random.js'

test('the critical value is where the Bayes factor reaches 1/alpha, and above the fixed-n t quantile', () => {
  for (const n of [6, 10, 20, 50, 200]) {
    const c = sequentialCritical(n)
    assert.ok(Math.abs(bayesFactor(c, n) - 20) < 1e-6, `n = ${n}: ${bayesFactor(c, n)}`)
    assert.ok(c > tQuantile(0.975, n - 1), `n = ${n}: ${c}`)
  }
  // Too few rounds for any t to reach 20: no bound yet.
  assert.equal(sequentialCritical(3), Infinity)
  assert.equal(confidenceSequence([0.1, 0.2, 0.15]).high, Infinity)
})

test('looked at after every round, identical versions are called different at most 5% of the time', () => {
  const random = seededRandom(23)
  const runs = 1000
  const rounds = 100
  let sequential = 0
  let naive = 0
  for (let r = 0; r < runs; r++) {
    const values = []
    let sequentialHit = false
    let naiveHit = false
    for (let i = 0; i < rounds; i++) {
      values.push(0.1 * random.normal())
      if (values.length < 3) continue
      const cs = confidenceSequence(values)
      if (cs.low > 0 || cs.high < 0) sequentialHit = true
      const t = oneSampleTTest(values)
      if (t.p < 0.05) naiveHit = true
    }
    if (sequentialHit) sequential++
    if (naiveHit) naive++
  }
  assert.ok(sequential / runs <= 0.05, `the confidence sequence: ${sequential} of ${runs}`)
  // The reason for it: a t-test re-run after each round gets as many chances as rounds.
  assert.ok(naive / runs >= 0.25, `the t-test after every round: ${naive} of ${runs}`)
})

test('the p-value is below 5% exactly when the interval leaves out 0', () => {
  const random = seededRandom(5)
  const values = Array.from({ length: 60 }, () => 0.05 + 0.1 * random.normal())
  const cs = confidenceSequence(values)
  assert.ok(cs.low > 0, 'a shift of half a spread is found in 60 rounds')
  assert.ok(cs.p < 0.05)
  const noise = confidenceSequence(Array.from({ length: 30 }, () => 0.1 * random.normal()))
  assert.ok(noise.low < 0 && noise.high > 0)
  assert.ok(noise.p > 0.05)
})

test('no spread: no interval before the sixth value; then a zero mean is no change, any other a certain one', () => {
  // Two rounds that agree exactly are not yet evidence of anything.
  const two = confidenceSequence([0.05, 0.05])
  assert.deepEqual([two.low, two.high], [-Infinity, Infinity])
  assert.ok(two.p > 0.05, `${two.p}`)
  const same = confidenceSequence([0, 0, 0, 0, 0, 0, 0])
  assert.deepEqual([same.low, same.high, same.p], [0, 0, 1])
  const shifted = confidenceSequence([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1])
  assert.ok(Math.abs(shifted.low - 0.1) < 1e-9 && Math.abs(shifted.high - 0.1) < 1e-9)
  assert.ok(shifted.p < 0.05, `${shifted.p}`)
})
