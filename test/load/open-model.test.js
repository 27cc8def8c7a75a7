import assert from 'node:assert/strict'
import { test } from 'node:test'
import { load } from '../../lib/index.js'
import { startHttpServer } from '../helpers/servers.js'

test('-R 200 -d 2: 400 requests, none before it is due', async (t) => {
  /** @type {number[]} */
  const arrivals = []
  const target = await startHttpServer((req, res) => {
    arrivals.push(performance.now())
    res.end('ok')
  })
  t.after(target.close)
  const before = performance.now()
  const result = await load({ url: target.url, rate: 200, duration: 2 })
  assert.equal(result.model, 'open')
  // Request k falls due k × 5 ms after the start: never more than that were sent.
  const due = Math.floor((result.duration + 0.001) * 200) + 1
  const { sent, completed } = result.requests
  assert.ok(sent <= due && sent >= 0.75 * due, `${sent} sent of ${due} due`)
  // The server saw every request sent, bar those on their way when the run ended.
  assert.ok(arrivals.length <= sent && arrivals.length >= completed, `server saw ${arrivals.length}, ${completed} answered of ${sent}`)
  assert.ok(sent - completed <= result.peakConnections, `${sent - completed} unanswered on ${result.peakConnections} connections`)
  // Evenly spaced: the i-th request to arrive was due no later than it
  // arrived. A late timer only delays requests (then the open model catches
  // up), so the median delay stays small even on a busy machine.
  arrivals.sort((a, b) => a - b)
  const early = arrivals.findIndex((at, i) => at < before + i * 5)
  assert.equal(early, -1, `request ${early} arrived ${(before + early * 5 - arrivals[early]).toFixed(2)} ms before it was due`)
  const delays = arrivals.map((at, i) => at - (before + i * 5)).sort((a, b) => a - b)
  const median = delays[Math.floor(delays.length / 2)]
  assert.ok(median < 25, `half the requests arrived more than ${median.toFixed(1)} ms after they were due`)
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
  // Closed model: only the two requests in flight when the stall began (one
  // per connection) waited on it, out of hundreds at least.
  assert.ok(closedResult.requests.completed >= 300, `closed: ${closedResult.requests.completed} answered`)
  assert.ok(closedResult.latency.percentiles['99'] < 250, `closed p99 ${closedResult.latency.percentiles['99']} ms`)
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
