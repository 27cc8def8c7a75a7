import assert from 'node:assert/strict'
import { test } from 'node:test'
import { analyzeGroup, processOpsPerSecond, summarizeCase } from '../../lib/micro/analyze.js'
import { tQuantile } from '../../lib/stats/t-distribution.js'

/** @param {number} actual @param {number} expected @param {number} tolerance */
function near (actual, expected, tolerance) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`)
}

const v8 = { case: { tier: /** @type {const} */ ('turbofan'), optimized: true, markedForOptimization: false, raw: 0 }, inspected: [], deopts: [] }

/**
 * A process as the runner records it: ns per call of each slice, samples inside them.
 * @param {number} round @param {number[]} slices
 * @returns {import('../../lib/micro/analyze.js').ProcessRun}
 */
function processRun (round, slices) {
  const samples = slices.flatMap((ns) => [ns * 0.98, ns * 1.02])
  return { round, ops: 1000 * samples.length, timeNs: samples.reduce((s, x) => s + x * 1000, 0), batch: 1000, samples, slices, baselineNs: null, async: false, v8 }
}

test('a process\'s figure is the median of its slices: a slice in which the CPU was taken does not move it', () => {
  assert.equal(processOpsPerSecond(processRun(0, [100, 101, 99, 400, 100])), 1e7)
  assert.equal(processOpsPerSecond(processRun(0, [100, 102])), 1e9 / 101)
})

test('a case\'s ops/sec is the geometric mean over processes; ± is the t interval on the logs', () => {
  const s = summarizeCase([processRun(0, [100]), processRun(1, [200]), processRun(2, [400])])
  near(s.opsPerSecond, 1e9 / 200, 1e-6)
  assert.deepEqual(s.processRounds, [0, 1, 2])
  const sdLog = Math.log(2) // the logs of 1e7, 5e6 and 2.5e6 are evenly spaced by ln 2
  near(s.rme, (Math.exp(tQuantile(0.975, 2) * sdLog / Math.sqrt(3)) - 1) * 100, 1e-9)
  assert.equal(s.samples, 6)
  near(s.nsPerOp.mean, 200, 1e-9)
})

test('cases are compared round by round: a drifting machine does not hide a 10% difference', () => {
  // Each round's machine speed differs by up to 2x; within a round "more" is 10% slower, ±1%.
  const machine = [1, 1.6, 0.8, 2, 1.2, 0.9]
  const jitter = [1.01, 0.99, 1, 1.005, 0.995, 1]
  const runs = [
    { group: '', name: 'less', error: null, processes: machine.map((m, r) => processRun(r, [100 * m])) },
    { group: '', name: 'more', error: null, processes: machine.map((m, r) => processRun(r, [110 * m * jitter[r]])) }
  ]
  const g = analyzeGroup('', runs)
  assert.deepEqual(g.fastest, { names: ['less'], separated: true })
  const vs = /** @type {NonNullable<typeof g.cases[1]['againstFastest']>} */ (g.cases[1].againstFastest)
  near(vs.ratio, 1.1, 0.005)
  assert.ok(vs.low > 1.09 && vs.high < 1.11, `${vs.low}–${vs.high}`)
  assert.ok(vs.p < 0.001)
  assert.equal(vs.rounds, 6)
})

test('cases that cannot be told apart are all named; a failed case is left out of the comparison', () => {
  const runs = [
    { group: 'g', name: 'a', error: null, processes: [0, 1, 2, 3].map((r) => processRun(r, [100 + (r % 2) * 3])) },
    { group: 'g', name: 'b', error: null, processes: [0, 1, 2, 3].map((r) => processRun(r, [100 + ((r + 1) % 2) * 3])) },
    { group: 'g', name: 'broken', error: { stage: 'run', code: 'DYNO_BENCH_CASE_THREW', message: 'threw' }, processes: [processRun(0, [10])] }
  ]
  const g = analyzeGroup('g', runs)
  assert.deepEqual(g.fastest?.names.sort(), ['a', 'b'])
  assert.equal(g.fastest?.separated, false)
  assert.equal(g.cases[2].summary, null)
})
