import assert from 'node:assert/strict'
import { test } from 'node:test'
import { LatencyRecorder } from '../../lib/load/histogram.js'

test('the last interval\'s latency counts only what was recorded since the previous one', () => {
  const recorder = new LatencyRecorder()
  assert.equal(recorder.takeInterval(), null)
  for (let ms = 1; ms <= 100; ms++) recorder.record(ms * 1000)
  const first = recorder.takeInterval()
  assert.ok(first)
  assert.equal(first.count, 100)
  // Three significant digits: within 0.1% of the exact figures.
  assert.ok(Math.abs(first.p50 - 50) <= 0.05, String(first.p50))
  assert.ok(Math.abs(first.p99 - 99) <= 0.1, String(first.p99))
  assert.ok(Math.abs(first.max - 100) <= 0.1, String(first.max))
  assert.equal(recorder.takeInterval(), null, 'nothing new since')
  for (let i = 0; i < 10; i++) recorder.record(2000)
  const second = recorder.takeInterval()
  assert.deepEqual(second && { count: second.count, p50: second.p50, max: second.max }, { count: 10, p50: 2, max: 2 })
  // The whole run's figures still hold everything.
  assert.equal(recorder.total, 110)
})

test('an interval is read whole whether its values lie below or above the run\'s max so far', () => {
  const recorder = new LatencyRecorder()
  recorder.record(900_000)
  recorder.takeInterval()
  // Below the run's max: the walk stops at this interval's own max.
  for (let i = 0; i < 99; i++) recorder.record(1000)
  recorder.record(3000)
  const below = recorder.takeInterval()
  assert.deepEqual(below, { count: 100, p50: 1, p99: 1, max: 3 })
  // Above it: the counts up to the old max's bucket were copied, that bucket included.
  recorder.record(1000)
  recorder.record(2_000_000)
  const above = recorder.takeInterval()
  assert.ok(above)
  assert.equal(above.count, 2)
  assert.equal(above.p50, 1)
  assert.ok(Math.abs(above.max - 2000) <= 2, String(above.max))
  assert.equal(recorder.takeInterval(), null)
  recorder.record(1000)
  assert.deepEqual(recorder.takeInterval(), { count: 1, p50: 1, p99: 1, max: 1 })
})
