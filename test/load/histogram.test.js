import assert from 'node:assert/strict'
import { test } from 'node:test'
import { LatencyRecorder, createHistogram, decodeHistogram, encodeHistogram } from '../../lib/load/histogram.js'
import { latencySummary, mergeRaw } from '../../lib/load/summary.js'
import { seededRandom } from '../helpers/random.js'

test('the fast recorder lands every value in the bucket HdrHistogram would', () => {
  const recorder = new LatencyRecorder()
  const reference = createHistogram()
  let max = 0
  const { uniform } = seededRandom(12345)
  for (let i = 0; i < 50_000; i++) {
    // Spread over 1 µs .. ~1 hour, log-uniformly.
    const us = Math.floor(Math.exp(uniform() * Math.log(3_600_000_000)))
    recorder.record(us)
    reference.recordValue(us)
    max = Math.max(max, us)
  }
  const fast = recorder.toHistogram()
  assert.equal(fast.totalCount, reference.totalCount)
  for (const p of [0, 1, 10, 50, 90, 99, 99.9, 99.99, 100]) {
    assert.equal(fast.getValueAtPercentile(p), reference.getValueAtPercentile(p), `p${p}`)
  }
  assert.equal(recorder.max, max)
})

test("a run's histogram reads and encodes exactly as hdr-histogram-js's would", () => {
  const { uniform } = seededRandom(777)
  for (const n of [0, 1, 3, 2_000, 50_000]) {
    const recorder = new LatencyRecorder()
    const reference = /** @type {import('hdr-histogram-js/dist/JsHistogram.js').JsHistogram} */ (createHistogram())
    for (let i = 0; i < n; i++) {
      // Mostly short, a few of them long; some counts past 127 and 16383, which take more bytes to encode.
      const us = uniform() < 0.9 ? 50 + Math.floor(uniform() * 200) : Math.floor(Math.exp(uniform() * Math.log(3_600_000_000)))
      recorder.record(us)
      reference.recordValue(us)
    }
    const ours = recorder.toHistogram()
    assert.equal(ours.totalCount, reference.totalCount)
    // In increasing order, as the summary asks, then in any order.
    const ps = [0, 0.001, 1, 2.5, 10, 50, 75, 90, 97.5, 99, 99.9, 99.99, 99.999, 100]
    for (const p of [...ps, ...[...ps].reverse(), 50, 50, 10, 99]) {
      assert.equal(ours.getValueAtPercentile(p), reference.getValueAtPercentile(p), `n ${n}, p${p}`)
    }
    for (const v of [1, 2047, 2048, 2049, 4095, 123_456, 3_600_000_000]) {
      assert.equal(ours.lowestEquivalentValue(v), reference.lowestEquivalentValue(v), `lowest ${v}`)
      assert.equal(ours.highestEquivalentValue(v), reference.highestEquivalentValue(v), `highest ${v}`)
      assert.equal(ours.medianEquivalentValue(v), reference.medianEquivalentValue(v), `median ${v}`)
    }
    assert.equal(encodeHistogram(ours), encodeHistogram(reference), `n ${n}`)
    assert.deepEqual(latencySummary(ours, recorder.min, recorder.max), latencySummary(reference, recorder.min, recorder.max))
  }
})

test('a large count encodes as hdr-histogram-js encodes it', () => {
  const recorder = new LatencyRecorder()
  const reference = createHistogram()
  recorder.record(100)
  recorder.counts[100] = 2 ** 40 + 12345
  recorder.total = recorder.counts[100]
  reference.recordValueWithCount(100, 2 ** 40 + 12345)
  assert.equal(encodeHistogram(recorder.toHistogram()), encodeHistogram(reference))
})

test('the encoded histogram round-trips and merges across runs', () => {
  const a = new LatencyRecorder()
  const b = new LatencyRecorder()
  for (let i = 1; i <= 1000; i++) a.record(i)
  for (let i = 1001; i <= 3000; i++) b.record(i)
  const decoded = decodeHistogram(encodeHistogram(a.toHistogram()))
  assert.equal(decoded.totalCount, 1000)
  decoded.add(decodeHistogram(encodeHistogram(b.toHistogram())))
  assert.equal(decoded.totalCount, 3000)
  assert.ok(Math.abs(decoded.getValueAtPercentile(50) - 1500) <= 2)
})

test('results of several workers add up', () => {
  /** @param {LatencyRecorder} latency @param {number[]} perSecond */
  const part = (latency, perSecond) => ({
    startedAt: 1000,
    durationMs: 2000,
    sent: 10,
    responses: 9,
    pending: 0,
    bytes: 100,
    dropped: 0,
    peakConnections: 2,
    statusCodes: { 200: 8, 500: 1 },
    errors: { timeout: 1, reset: 0, refused: 0, closed: 0, invalid: 0, tls: 0, goaway: 0, stream: 0, other: 0 },
    latency,
    perSecond: { responses: perSecond, bytes: perSecond.map((n) => n * 10) },
    targetRefusing: false,
    failure: null
  })
  const a = new LatencyRecorder()
  a.record(100)
  const b = new LatencyRecorder()
  b.record(300)
  const merged = mergeRaw([part(a, [4, 5]), part(b, [3, 6, 1])])
  assert.equal(merged.sent, 20)
  assert.equal(merged.responses, 18)
  assert.deepEqual(merged.statusCodes, { 200: 16, 500: 2 })
  assert.equal(merged.errors.timeout, 2)
  assert.deepEqual(merged.perSecond.responses, [7, 11])
  assert.equal(merged.latency.toHistogram().totalCount, 2)
})
