import assert from 'node:assert/strict'
import { test } from 'node:test'
import { load } from '../../lib/index.js'
import { GROW_AFTER_MS, OpenModel, requestsDue } from '../../lib/load/open-model.js'
import { startHttpServer } from '../helpers/servers.js'

test('the open model hands out request k for start + k × interval, never before, and catches up after a late call', () => {
  // The scheduler's clock is the `now` each connection asks with: here the
  // test's, at uneven moments, with a 100 ms stall, as a busy machine asks.
  let now = 0
  /** @type {{ intended: number, at: number }[]} */
  const handed = []
  const connection = {
    /** @param {number} n @param {number} first @param {number} interval */
    send (n, first, interval) {
      for (let i = 0; i < n; i++) handed.push({ intended: first + i * interval, at: now })
    },
    markIdle: () => false
  }
  const pool = { connections: [], openConnection () {} }
  const model = new OpenModel({ rate: 200, amount: Infinity, maxConnections: 1 }, pool)
  // Not start(): that arms the real timer; dispatch is the decision under test.
  model.startTime = 1000
  const ask = (/** @type {number} */ at, /** @type {number} */ free) => {
    now = at
    model.dispatch(/** @type {any} */ (connection), free, now)
  }
  for (const at of [1000, 1003, 1006, 1010.5, 1110, 1111]) ask(at, 1000)
  // Due by 1111: requests 0..22, each handed out at or after its due time.
  assert.deepEqual(handed.map((h) => h.intended), Array.from({ length: 23 }, (_, k) => 1000 + 5 * k))
  for (const h of handed) assert.ok(h.at >= h.intended, `handed out at ${h.at}, due at ${h.intended}`)
  // A connection with one free slot takes one of the backlog at a time.
  ask(1200, 1)
  assert.equal(handed.length, 24)
  assert.equal(handed[23].intended, 1115)
  // A run that ended then, 200 ms in: due before its last 5 ms, not handed out.
  assert.equal(model.dropped(200), 40 - 24)
})

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
  // Request k falls due k × 5 ms after the start: never more than that were
  // sent. A busy machine sends fewer, and counts the rest as dropped: every
  // request due before the run's last few ms (the duration is rounded to the ms) is one or the other.
  const due = Math.floor((result.duration + 0.001) * 200) + 1
  const { sent, completed, dropped } = result.requests
  assert.ok(sent > 0 && sent <= due, `${sent} sent of ${due} due`)
  const dueBeforeEnd = Math.min(requestsDue(200, 2000), Math.floor((result.duration * 1000 - GROW_AFTER_MS) / 5))
  assert.ok(sent + dropped >= dueBeforeEnd && sent + dropped <= requestsDue(200, 2000), `${sent} sent and ${dropped} dropped of ${dueBeforeEnd} due before the end`)
  // The server saw every request sent, bar those on their way when the run ended.
  assert.ok(arrivals.length <= sent && arrivals.length >= completed, `server saw ${arrivals.length}, ${completed} answered of ${sent}`)
  assert.ok(sent - completed <= result.peakConnections, `${sent - completed} unanswered on ${result.peakConnections} connections`)
  // No burst ahead of the schedule: the i-th request to arrive was due no later than it arrived.
  arrivals.sort((a, b) => a - b)
  const early = arrivals.findIndex((at, i) => at < before + i * 5)
  assert.equal(early, -1, `request ${early} arrived ${(before + early * 5 - arrivals[early]).toFixed(2)} ms before it was due`)
})

/**
 * A server that answers at once, except for a 500 ms stall that starts
 * 700 ms after its first request: everything that arrives in the stall, or
 * is waiting when it starts, is answered when it ends. `holds` has how long
 * it held each such request, longest first, measured as it answers.
 */
async function stallingServer () {
  let stallStart = 0
  // Ends when its timers fire, which may be before stallEnd by the clock:
  // Node schedules a timer from the loop's cached time, which a busy turn makes older.
  let stallOver = false
  /** @type {number[]} */
  const holds = []
  const server = await startHttpServer((req, res) => {
    const now = performance.now()
    if (stallStart === 0) stallStart = now + 700
    const stallEnd = stallStart + 500
    if (!stallOver && now >= stallStart && now < stallEnd) {
      setTimeout(() => {
        stallOver = true
        holds.push(performance.now() - now)
        holds.sort((a, b) => b - a)
        res.end('late')
      }, stallEnd - now)
    } else {
      res.end('ok')
    }
  })
  return { ...server, holds }
}

test('a 500 ms stall shows in the open model\'s p99 but hides in the closed model', async (t) => {
  const open = await stallingServer()
  t.after(open.close)
  const openResult = await load({ url: open.url, rate: 100, duration: 2, connections: 2 })
  const closed = await stallingServer()
  t.after(closed.close)
  const closedResult = await load({ url: closed.url, duration: 2, connections: 2 })

  // A request's latency is never below the time the server held it: the
  // load and the server share this thread's clock.
  // Open model: requests kept falling due during the stall (about 50 of
  // about 200), so the held ones fill the tail: p90 and p99 are at least
  // what the server held the slowest 10% and 1% for, about 450 and 500 ms.
  const { percentiles } = openResult.latency
  const slowest = (/** @type {number} */ share) => Math.ceil(openResult.requests.completed * share)
  assert.ok(open.holds.length > slowest(0.1), `the stall held ${open.holds.length} of ${openResult.requests.completed} requests`)
  assert.ok(percentiles['99'] >= open.holds[slowest(0.01)], `open p99 ${percentiles['99']} ms, held ${open.holds.map(Math.round).join(' ')}`)
  assert.ok(percentiles['90'] >= open.holds[slowest(0.1)], `open p90 ${percentiles['90']} ms, held ${open.holds.map(Math.round).join(' ')}`)
  // More connections opened while the first ones were stuck.
  assert.ok(openResult.peakConnections > 2, `peak connections ${openResult.peakConnections}`)
  // Closed model: the stall held only the request each connection had in
  // flight, 2 samples of the many answered: only the max shows it.
  assert.equal(closed.holds.length, 2)
  assert.ok(closedResult.requests.completed > 2, `closed: ${closedResult.requests.completed} answered`)
  assert.ok(closedResult.latency.max >= closed.holds[0], `closed max ${closedResult.latency.max} ms, held ${closed.holds[0]} ms`)
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
