import assert from 'node:assert/strict'
import { test } from 'node:test'
import { load } from '../../lib/index.js'
import { decodeHistogram } from '../../lib/load/histogram.js'
import { startHttpServer } from '../helpers/servers.js'

test('-a 1000 sends exactly 1000 requests, as the server counts them', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const result = await load({ url: target.url, amount: 1000, connections: 10 })
  assert.equal(target.stats.requests, 1000)
  assert.equal(result.requests.sent, 1000)
  assert.equal(result.requests.completed, 1000)
  assert.equal(result.statusCodes['200'], 1000)
  assert.equal(result.errors.total, 0)
})

test('-a stays exact with pipelining and worker threads', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const result = await load({ url: target.url, amount: 777, connections: 6, pipelining: 4, workers: 2 })
  assert.equal(target.stats.requests, 777)
  assert.equal(result.requests.completed, 777)
  assert.equal(result.workers, 2)
  assert.equal(decodeHistogram(result.latency.histogram.data).totalCount, 777)
})

test('-c opens exactly that many sockets', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  await load({ url: target.url, connections: 25, duration: 0.5 })
  assert.equal(target.stats.connections, 25)
})

test('pipelined responses are matched to their requests in order', async (t) => {
  const target = await startHttpServer((req, res) => {
    // Answer out of time order: later requests are quicker. HTTP/1.1 still
    // delivers the responses in request order, and so must our bookkeeping.
    const delay = req.url === '/a' ? 6 : req.url === '/b' ? 3 : 0
    setTimeout(() => res.end(req.url), delay)
  })
  t.after(target.close)
  /** @type {string[]} */
  const mismatches = []
  let seen = 0
  /** @param {string} path */
  const expect = (path) => ({
    path,
    onResponse: (/** @type {number} */ status, /** @type {string} */ body) => {
      seen++
      if (body !== path) mismatches.push(`${path} got ${body}`)
    }
  })
  const result = await load({ url: target.url, amount: 300, connections: 2, pipelining: 5, requests: [expect('/a'), expect('/b'), expect('/c')] })
  assert.equal(result.requests.completed, 300)
  assert.equal(seen, 300)
  assert.deepEqual(mismatches, [])
})

test('latency of a server that waits 50 ms is never below 50 ms', async (t) => {
  const target = await startHttpServer((req, res) => setTimeout(() => res.end('ok'), 50))
  t.after(target.close)
  const result = await load({ url: target.url, connections: 10, amount: 200 })
  assert.equal(result.requests.completed, 200)
  // Never below the server's wait (a timer may fire a hair early against the
  // clock). How little above it depends on the machine: test/timing/load.test.js.
  const p50 = result.latency.percentiles['50']
  assert.ok(p50 >= 49, `p50 was ${p50} ms`)
  // Each connection waited on 20 requests in turn.
  assert.ok(result.duration >= 20 * 0.049, `took ${result.duration} s`)
})

test('the JSON result carries a schema version and a mergeable histogram', async (t) => {
  const target = await startHttpServer((req, res) => res.end('hello world'))
  t.after(target.close)
  const result = await load({ url: target.url, amount: 200, connections: 2 })
  assert.equal(result.schemaVersion, 1)
  assert.equal(result.latency.histogram.encoding, 'HdrHistogram-compressed-base64')
  const histogram = decodeHistogram(result.latency.histogram.data)
  assert.equal(histogram.totalCount, 200)
  // Recorded in microseconds; the percentiles reported in ms agree with it.
  assert.ok(Math.abs(histogram.getValueAtPercentile(50) / 1000 - result.latency.percentiles['50']) < 0.01)
  assert.ok(result.bytes.total > 200 * 'hello world'.length)
  assert.deepEqual(JSON.parse(JSON.stringify(result)), result)
})

test('stopping through the signal returns what was measured so far', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const controller = new AbortController()
  /** @type {number[]} */
  const progress = []
  // Stopped right after the first progress tick: nothing happens in between,
  // so the result holds exactly what that tick reported.
  const result = await load({
    url: target.url,
    duration: 30,
    signal: controller.signal,
    onProgress: (p) => {
      progress.push(p.responses)
      controller.abort()
    }
  })
  assert.equal(result.interrupted, true)
  assert.ok(result.duration < 30, `ran ${result.duration} s`)
  assert.equal(progress.length, 1)
  assert.ok(progress[0] > 0)
  assert.equal(result.requests.completed, progress[0])
})

test('-a alone ends once the target has refused every connection for a whole timeout', { timeout: 30_000 }, async () => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  let served = 0
  target.server.on('request', () => { if (++served === 50) target.close() })
  // Without the rule this run would knock for ever: the test's timeout is the guard.
  const result = await load({ url: target.url, amount: 1_000_000, timeout: 0.5, connections: 2 })
  assert.equal(result.targetRefusing, true)
  assert.ok(result.requests.completed >= 50)
  assert.ok(result.errors.refused > 0)
})
