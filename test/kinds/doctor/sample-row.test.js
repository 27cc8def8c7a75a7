import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { test } from 'node:test'

const require = createRequire(import.meta.url)
const { COUNTER, COUNTER_LENGTH, ROW, ROW_LENGTH, countGc, rowToSample } = require('../../../lib/agent/collectors/doctor/sample-row.cjs')
const { RowRing } = require('../../../lib/agent/collectors/doctor/row-ring.cjs')

/** @param {{ t: number, idle: number, self?: number, delay?: number[], counters?: Float64Array }} figures */
function row ({ t, idle, self = 0, delay = [0, 0, 0, 0, 0], counters = new Float64Array(COUNTER_LENGTH) }) {
  const values = new Float64Array(ROW_LENGTH)
  values[ROW.t] = t
  values[ROW.idle] = idle
  values[ROW.self] = self
  values.set(delay, ROW.delay)
  values.set(counters, ROW.counters)
  return values
}

test('a row becomes the sample of its interval: running figures less the row before', () => {
  const counters = new Float64Array(COUNTER_LENGTH)
  counters[COUNTER.httpStarted] = 7
  counters[COUNTER.httpFinished] = 5
  const before = row({ t: 1000, idle: 50, counters })
  countGc(counters, 1, 0.5) // scavenge
  countGc(counters, 1, 1.25)
  countGc(counters, 4, 12) // mark-compact
  countGc(counters, 64, 2) // a kind this Node has and dyno does not know
  counters[COUNTER.httpStarted] = 12
  counters[COUNTER.httpFinished] = 11
  const sample = rowToSample(row({ t: 1010, idle: 52.5, self: 0.04, delay: [0.25, 0.25, 0.25, 0.25, 1], counters }), before)
  assert.deepEqual(sample, {
    t: 1010,
    delay: { min: 0.25, p50: 0.25, p99: 0.25, max: 0.25, n: 1 },
    elu: 0.75,
    gc: { scavenge: [2, 1.75], markCompact: [1, 12], other: [1, 2], max: 12 },
    http: { started: 5, finished: 6, inFlight: 1 },
    self: 0.04
  })
})

test('an interval without probes has no delay, and one of no time no utilization', () => {
  const first = row({ t: 1000, idle: 10 })
  const sample = rowToSample(row({ t: 1000, idle: 10 }), first)
  assert.equal(sample.delay, null)
  assert.equal(sample.elu, 0)
  assert.deepEqual(sample.gc, { max: 0 })
})

test('loop utilization stays within 0 and 1 when the clocks disagree a little', () => {
  assert.equal(rowToSample(row({ t: 1010, idle: 21 }), row({ t: 1000, idle: 10 })).elu, 0)
  assert.equal(rowToSample(row({ t: 1010, idle: 9 }), row({ t: 1000, idle: 10 })).elu, 1)
})

test('the row ring hands rows over in order, across its end, and drops what does not fit', () => {
  const ring = RowRing.create(2, 4)
  const taken = () => {
    const rows = /** @type {number[][]} */ ([])
    ring.take((r) => rows.push([...r]))
    return rows
  }
  const put = (/** @type {number} */ a) => {
    const at = ring.next()
    ring.values[at] = a
    ring.values[at + 1] = -a
    return ring.commit()
  }
  for (let i = 1; i <= 3; i++) assert.equal(put(i), true)
  assert.deepEqual(taken(), [[1, -1], [2, -2], [3, -3]])
  assert.deepEqual(taken(), [], 'nothing twice')
  for (let i = 4; i <= 7; i++) assert.equal(put(i), true)
  assert.equal(put(8), false, 'the ring is full: the row is dropped')
  assert.deepEqual(taken(), [[4, -4], [5, -5], [6, -6], [7, -7]], 'the rows kept are intact')
  assert.throws(() => RowRing.create(2, 3), /power of two/)
})
