import assert from 'node:assert/strict'
import { test } from 'node:test'
import { compareRuns } from '../../lib/stats/runs.js'
import { seededRandom } from '../helpers/random.js'

/**
 * Saved runs of one version: each run's mean moves by a run effect (sd `between`, on the logs),
 * each of its `n` processes by its own noise (sd `within`).
 * @param {() => number} normal @param {number} runs @param {{ between: number, within: number, n?: number, speed?: number }} machine
 */
function savedRuns (normal, runs, { between, within, n = 10, speed = 1 }) {
  return Array.from({ length: runs }, () => {
    const effect = between * normal()
    return Array.from({ length: n }, () => 1e6 * speed * Math.exp(effect + within * normal()))
  })
}

/** @param {number} trials @param {(i: number) => boolean} calledDifferent */
const rateOf = (trials, calledDifferent) => Array.from({ length: trials }, (_, i) => calledDifferent(i)).filter(Boolean).length / trials

test('one run each: processes alone take the drift between runs for a change; allowing for it keeps A/A at 5%', () => {
  // Between runs the mean moves as much as three processes vary (variance 3σ²), as measured here.
  const { normal } = seededRandom(1)
  const machine = { between: Math.sqrt(3) * 0.1, within: 0.1 }
  const pairs = Array.from({ length: 3000 }, () => [savedRuns(normal, 1, machine), savedRuns(normal, 1, machine)])
  const naive = rateOf(pairs.length, (i) => compareRuns(pairs[i][0], pairs[i][1], { betweenRuns: 0 }).significant)
  const allowed = rateOf(pairs.length, (i) => compareRuns(pairs[i][0], pairs[i][1], { betweenRuns: 3 }).significant)
  assert.ok(naive > 0.5, `without the allowance: ${naive}`)
  assert.ok(allowed > 0.03 && allowed < 0.07, `with it: ${allowed}`)
})

test('several runs a side: a drift larger than the allowance shows in their spread, which then sets the interval', () => {
  const { normal } = seededRandom(2)
  const machine = { between: 4 * 0.1, within: 0.1 } // 16σ², far beyond the allowance of 3σ²
  const pairs = Array.from({ length: 3000 }, () => [savedRuns(normal, 3, machine), savedRuns(normal, 3, machine)])
  const rate = rateOf(pairs.length, (i) => compareRuns(pairs[i][0], pairs[i][1], { betweenRuns: 3 }).significant)
  assert.ok(rate < 0.07, `A/A called different: ${rate}`)
  const c = compareRuns(pairs[0][0], pairs[0][1], { betweenRuns: 3 })
  assert.equal(c.a.from, 'runs')
  assert.equal(c.a.runs, 3)
  assert.equal(c.a.df, 4) // (3 - 1) runs of each side, pooled
})

test('a change well beyond the drift is found, with the right sign and a ratio of geometric means', () => {
  const { normal } = seededRandom(3)
  const machine = { between: Math.sqrt(3) * 0.02, within: 0.02 }
  const before = savedRuns(normal, 2, machine)
  const after = savedRuns(normal, 2, { ...machine, speed: 1.5 })
  const c = compareRuns(before, after, { betweenRuns: 3 })
  assert.equal(c.verdict, 'higher')
  assert.ok(c.low > 1.2 && c.high < 1.9, JSON.stringify(c))
  const geometric = (/** @type {number[][]} */ runs) => Math.exp(runs.reduce((s, r) => s + r.reduce((t, x) => t + Math.log(x), 0) / r.length, 0) / runs.length)
  assert.ok(Math.abs(c.ratio - geometric(after) / geometric(before)) < 1e-9)
})

test('identical runs are the same; a side with nothing to estimate a spread from is indistinguishable', () => {
  const same = compareRuns([[100, 110, 90]], [[100, 110, 90]], { betweenRuns: 3 })
  assert.equal(same.ratio, 1)
  assert.equal(same.p, 1)
  const single = compareRuns([[100]], [[200]], { betweenRuns: 3 })
  assert.equal(single.verdict, 'indistinguishable')
  assert.ok(Number.isNaN(single.p))
})
