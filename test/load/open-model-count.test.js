import assert from 'node:assert/strict'
import { test } from 'node:test'
import { load } from '../../lib/index.js'
import { OpenModel, requestsDue } from '../../lib/load/open-model.js'
import { startHttpServer } from '../helpers/servers.js'

test('rate × duration requests fall due in a run, not one more', () => {
  assert.equal(requestsDue(20, 1000), 20)
  assert.equal(requestsDue(0.5, 3000), 2)
  // 0.1 × 30 is 3.0000000000000004 in floating point.
  assert.equal(requestsDue(0.1, 30_000), 3)
  assert.equal(requestsDue(3, 1000), 3)
  assert.equal(requestsDue(1000, Infinity), Infinity)
  // However late the clock, the scheduler hands out no more than fall due.
  const model = new OpenModel({ rate: 20, amount: requestsDue(20, 1000), maxConnections: 1 }, { connections: [], openConnection () {} })
  assert.equal(model.dueCount(model.startTime + 5000), 20)
})

test('-R 20 -d 1 sends 20 requests, one engine or two', async (t) => {
  for (const workers of [0, 2]) {
    // A server of its own for each run: a request of the last run still on
    // its way when that run ended must not count in this one.
    let seen = 0
    const target = await startHttpServer((req, res) => { seen++; res.end('ok') })
    t.after(target.close)
    const result = await load({ url: target.url, rate: 20, duration: 1, workers })
    // What was not sent in time counts as dropped; nothing beyond the 20.
    assert.equal(result.requests.sent + result.requests.dropped, 20, `${workers} workers: sent ${result.requests.sent}, dropped ${result.requests.dropped}`)
    assert.ok(seen <= 20, `${workers} workers: the server saw ${seen}`)
  }
})
