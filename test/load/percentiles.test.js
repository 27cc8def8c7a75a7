import assert from 'node:assert/strict'
import { test } from 'node:test'
import { LatencyRecorder } from '../../lib/load/histogram.js'
import { LATENCY_PERCENTILES, mergeRaw, summarize } from '../../lib/load/summary.js'
import { resolveOptions } from '../../lib/load/options.js'

/** A raw result around a latency recorder. @param {LatencyRecorder} latency */
function raw (latency) {
  return {
    startedAt: 0,
    durationMs: 1000,
    sent: latency.total,
    responses: latency.total,
    pending: 0,
    bytes: 0,
    dropped: 0,
    peakConnections: 1,
    statusCodes: { 200: latency.total },
    errors: { timeout: 0, reset: 0, refused: 0, closed: 0, invalid: 0, tls: 0, goaway: 0, stream: 0, other: 0 },
    latency,
    perSecond: { responses: [latency.total], bytes: [0] },
    targetRefusing: false,
    failure: null
  }
}

test('no percentile reads above the max or below the min', () => {
  const options = resolveOptions({ url: 'http://127.0.0.1:3000/' })
  // 309.81 ms sits in a bucket whose top is above it; so does 13.795 ms.
  for (const values of [[309_810], [13_795, 13_795, 13_799 - 5], [1200, 1201, 309_810], [5_000_123]]) {
    const latency = new LatencyRecorder()
    for (const us of values) latency.record(us)
    const one = summarize(raw(latency), options, { interrupted: false, cpuMs: 0, host: 'here', pid: 1, rawWrite: true })
    const l = one.latency
    assert.equal(l.max, Math.max(...values) / 1000)
    assert.equal(l.min, Math.min(...values) / 1000)
    for (const p of LATENCY_PERCENTILES) {
      const v = l.percentiles[String(p)]
      assert.ok(v <= l.max && v >= l.min, `p${p} = ${v} ms outside [${l.min}, ${l.max}] for ${values}`)
    }
    assert.ok(l.mean <= l.max && l.mean >= l.min)
  }
})

test('workers keep the exact min and max when their results add up', () => {
  const a = new LatencyRecorder()
  a.record(1234)
  const b = new LatencyRecorder()
  b.record(309_810)
  const merged = mergeRaw([raw(a), raw(b)])
  assert.equal(merged.latency.min, 1234)
  assert.equal(merged.latency.max, 309_810)
})
