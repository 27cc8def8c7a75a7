/**
 * The timing tier (see scripts/test.js): what the load engine achieves on
 * this machine. These bounds hold on a quiet machine; a busy one may miss
 * them, and npm test reports that as information, not as a failure.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { load } from '../../lib/index.js'
import { startHttpServer } from '../helpers/servers.js'

test('latency of a server that waits 50 ms is 50 ms and a little', async (t) => {
  const target = await startHttpServer((req, res) => setTimeout(() => res.end('ok'), 50))
  t.after(target.close)
  const result = await load({ url: target.url, connections: 10, amount: 200 })
  assert.equal(result.requests.completed, 200)
  const p50 = result.latency.percentiles['50']
  assert.ok(p50 >= 49 && p50 < 150, `p50 was ${p50} ms`)
})

test('-R 200 -d 2 sends at least half of the requests that fall due', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const result = await load({ url: target.url, rate: 200, duration: 2 })
  const due = Math.floor((result.duration + 0.001) * 200) + 1
  assert.ok(result.requests.sent >= 0.5 * due, `${result.requests.sent} sent of ${due} due`)
})
