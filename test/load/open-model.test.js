import assert from 'node:assert/strict'
import { test } from 'node:test'
import { load } from '../../lib/index.js'
import { startHttpServer } from '../helpers/servers.js'

test('-R 200 -d 2: 400 requests, evenly spaced', async (t) => {
  /** @type {number[]} */
  const arrivals = []
  const target = await startHttpServer((req, res) => {
    arrivals.push(performance.now())
    res.end('ok')
  })
  t.after(target.close)
  const result = await load({ url: target.url, rate: 200, duration: 2 })
  assert.ok(arrivals.length >= 380 && arrivals.length <= 420, `server saw ${arrivals.length} requests`)
  assert.equal(result.model, 'open')
  // The run may end with the last request sent but not yet answered.
  assert.ok(arrivals.length - result.requests.completed <= 2, `${result.requests.completed} answered of ${arrivals.length}`)
  // No 100 ms window holds more than 1.5 times its share (20 requests).
  const first = arrivals[0]
  /** @type {number[]} */
  const windows = []
  for (const at of arrivals) {
    const w = Math.floor((at - first) / 100)
    windows[w] = (windows[w] ?? 0) + 1
  }
  const busiest = Math.max(...windows.filter(Boolean))
  assert.ok(busiest <= 30, `a 100 ms window held ${busiest} requests: ${windows.join(' ')}`)
})

/**
 * A server that answers at once, except for a 500 ms stall that starts
 * 700 ms after its first request: everything that arrives in the stall, or
 * is waiting when it starts, is answered when it ends.
 */
async function stallingServer () {
  let stallStart = 0
  return startHttpServer((req, res) => {
    const now = performance.now()
    if (stallStart === 0) stallStart = now + 700
    const stallEnd = stallStart + 500
    if (now >= stallStart && now < stallEnd) setTimeout(() => res.end('late'), stallEnd - now)
    else res.end('ok')
  })
}

test('a 500 ms stall shows in the open model\'s p99 but hides in the closed model', async (t) => {
  const open = await stallingServer()
  t.after(open.close)
  const openResult = await load({ url: open.url, rate: 100, duration: 2, connections: 2 })
  const closed = await stallingServer()
  t.after(closed.close)
  const closedResult = await load({ url: closed.url, duration: 2, connections: 2 })

  // Open model: ~50 of ~200 requests were due during the stall, waiting up to 500 ms.
  assert.ok(openResult.latency.percentiles['99'] >= 400, `open p99 ${openResult.latency.percentiles['99']} ms`)
  assert.ok(openResult.latency.percentiles['90'] >= 150, `open p90 ${openResult.latency.percentiles['90']} ms`)
  // More connections opened while the first ones were stuck.
  assert.ok(openResult.peakConnections > 2, `peak connections ${openResult.peakConnections}`)
  // Closed model: the two stuck connections hold 2 of thousands of samples.
  assert.ok(closedResult.requests.completed > 1000)
  assert.ok(closedResult.latency.percentiles['99'] < 50, `closed p99 ${closedResult.latency.percentiles['99']} ms`)
  assert.ok(closedResult.latency.max >= 400, `closed max ${closedResult.latency.max} ms`)
})

test('the open model counts requests it could not send when capped', async (t) => {
  const target = await startHttpServer((req, res) => setTimeout(() => res.end('ok'), 300))
  t.after(target.close)
  // One connection, never more, at 50 req/s against a 300 ms server: it falls behind.
  const result = await load({ url: target.url, rate: 50, duration: 1.5, connections: 1, maxConnections: 1 })
  assert.equal(result.peakConnections, 1)
  assert.ok(result.requests.dropped > 40, `dropped ${result.requests.dropped}`)
  assert.ok(result.latency.max >= 500, `max ${result.latency.max} ms`)
})
