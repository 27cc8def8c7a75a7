import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { test } from 'node:test'

const require = createRequire(import.meta.url)
const { LoopDelay, probePlan } = require('../../../lib/agent/collectors/doctor/loop-delay.cjs')

/** [min, p50, p99, max, probes] since the last take. @param {InstanceType<typeof LoopDelay>} delay */
function take (delay) {
  const values = new Float64Array(7).fill(-1)
  delay.takeInto(values, 1)
  assert.equal(values[0], -1, 'nothing written before its place')
  assert.equal(values[6], -1, 'nothing written after its five figures')
  return [...values.subarray(1, 6)]
}

test('each probe counts how late it ran beyond its period, and a take sums up the interval exactly', () => {
  const delay = new LoopDelay(5, 1000)
  // Late by 0, 1, 3, 0 and 40 ms.
  for (const t of [1005, 1011, 1019, 1024, 1069]) delay.probe(t)
  assert.deepEqual(take(delay), [0, 1, 40, 40, 5])
  assert.deepEqual(take(delay), [0, 0, 0, 0, 0], 'no probe since the last take')
  delay.probe(1074.5)
  assert.deepEqual(take(delay), [0.5, 0.5, 0.5, 0.5, 1])
})

test('a probe that ran early counts as no delay', () => {
  const delay = new LoopDelay(10, 0)
  delay.probe(9.2)
  assert.deepEqual(take(delay), [0, 0, 0, 0, 1])
})

test('beyond the probes it keeps, an interval still has its longest delay and its count', () => {
  const delay = new LoopDelay(1, 0)
  let t = 0
  for (let i = 0; i < 1500; i++) delay.probe(t += 1)
  delay.probe(t += 251)
  assert.deepEqual(take(delay), [0, 0, 0, 250, 1501])
})

test('an interval is probed every 10 ms or so, and one of 10 ms or less once', () => {
  assert.deepEqual(probePlan(10), { perSample: 1, periodMs: 10 })
  assert.deepEqual(probePlan(1), { perSample: 1, periodMs: 1 })
  assert.deepEqual(probePlan(100), { perSample: 10, periodMs: 10 })
  assert.deepEqual(probePlan(25), { perSample: 3, periodMs: 25 / 3 })
})
