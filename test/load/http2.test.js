import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import http2 from 'node:http2'
import https from 'node:https'
import net from 'node:net'
import { test } from 'node:test'
import { load } from '../../lib/index.js'
import { Http2Connection } from '../../lib/load/http2-connection.js'
import { runDyno } from '../helpers/cli.js'
import { startHttpServer } from '../helpers/servers.js'

const fixture = (/** @type {string} */ name) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url))

/**
 * An HTTP/2 server on 127.0.0.1 that counts what it saw: requests, the most
 * streams open at once on one session, and what `onStream` did.
 * @param {{ tls?: boolean, settings?: http2.Settings, onStream?: (stream: http2.ServerHttp2Stream, count: number) => boolean }} [options]
 *   onStream returns true when it dealt with the stream itself
 */
async function startHttp2Server ({ tls = false, settings, onStream } = {}) {
  const server = tls
    ? http2.createSecureServer({ key: fixture('server-key.pem'), cert: fixture('server.pem'), settings })
    : http2.createServer({ settings })
  const stats = { requests: 0, mostOpen: 0, sessions: 0 }
  /** @type {Set<http2.ServerHttp2Session>} */
  const sessions = new Set()
  /** Streams open on each session. @type {Map<http2.ServerHttp2Session, number>} */
  const open = new Map()
  server.on('session', (session) => {
    stats.sessions++
    sessions.add(session)
    open.set(session, 0)
    session.on('close', () => { sessions.delete(session); open.delete(session) })
  })
  server.on('stream', (stream) => {
    stats.requests++
    stream.on('error', () => {})
    const session = /** @type {http2.ServerHttp2Session} */ (stream.session)
    const now = (open.get(session) ?? 0) + 1
    open.set(session, now)
    stream.on('close', () => open.set(session, (open.get(session) ?? 1) - 1))
    stats.mostOpen = Math.max(stats.mostOpen, now)
    if (onStream?.(stream, stats.requests)) return
    // Answered a little later, so that the streams a client keeps open overlap.
    setTimeout(() => {
      if (stream.destroyed) return
      stream.respond({ ':status': 200, 'content-type': 'text/plain' })
      stream.end('hello')
    }, 5)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/`,
    stats,
    close: () => new Promise((resolve) => {
      for (const session of sessions) session.destroy()
      server.close(() => resolve(undefined))
    })
  }
}

test('h2c with prior knowledge: every request answered over HTTP/2, --streams of them at once on a connection', async (t) => {
  const server = await startHttp2Server()
  t.after(server.close)
  const result = await load({ url: server.url, http2: true, streams: 8, connections: 2, amount: 400 })
  assert.equal(result.requests.completed, 400)
  assert.equal(result.errors.total, 0)
  assert.equal(result.protocol, 'HTTP/2')
  assert.equal(result.streams, 8)
  assert.equal(result.streamLimit, null)
  assert.equal(server.stats.requests, 400)
  assert.equal(server.stats.mostOpen, 8)
})

test('h2 over TLS by ALPN, verified with --ca; the Date header still bounds the server clock', async (t) => {
  const server = await startHttp2Server({ tls: true })
  t.after(server.close)
  const result = await load({ url: server.url, http2: true, streams: 4, connections: 2, amount: 200, ca: fixture('ca.pem') })
  assert.equal(result.requests.completed, 200)
  assert.equal(result.errors.total, 0)
  assert.deepEqual(result.statusCodes, { 200: 200 })
  assert.ok(result.bytes.total > 0)
  assert.notEqual(result.serverClock, null)
})

test('a server that allows fewer streams than --streams: the load keeps to its limit and says so', async (t) => {
  const server = await startHttp2Server({ settings: { maxConcurrentStreams: 2 } })
  t.after(server.close)
  const result = await load({ url: server.url, http2: true, streams: 10, connections: 1, amount: 100 })
  assert.equal(result.requests.completed, 100)
  assert.equal(result.errors.total, 0)
  assert.equal(result.streamLimit, 2)
  assert.ok(server.stats.mostOpen <= 2)
})

test('RST_STREAM and GOAWAY mid-run count as errors of their own kinds, and the load goes on', async (t) => {
  let resets = 0
  const server = await startHttp2Server({
    onStream: (stream, count) => {
      if (count % 5 === 0) {
        resets++
        stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR)
        return true
      }
      // Every 40th request ends its session: the streams opened after the one before it are not processed.
      if (count % 40 === 1 && count > 1) stream.session?.goaway(http2.constants.NGHTTP2_NO_ERROR, /** @type {number} */ (stream.id) - 2)
      return false
    }
  })
  t.after(server.close)
  const result = await load({ url: server.url, http2: true, streams: 4, connections: 1, amount: 300 })
  const { errors, requests } = result
  assert.equal(requests.completed + errors.total, 300, 'every request answered or counted failed')
  assert.equal(errors.stream, resets)
  assert.ok(errors.goaway > 0, 'streams a GOAWAY left out are counted')
  assert.equal(errors.total, errors.stream + errors.goaway)
})

test('a stream that is never answered times out on its own; the others on its connection go on', async (t) => {
  const server = await startHttp2Server({ onStream: (stream, count) => count % 10 === 0 })
  t.after(server.close)
  const result = await load({ url: server.url, http2: true, streams: 4, connections: 1, amount: 100, timeout: 0.3 })
  assert.equal(result.errors.timeout, 10)
  assert.equal(result.requests.completed, 90)
})

test('--http2 to a server that speaks HTTP/1.1 alone: one line that says so, exit 2', async (t) => {
  const plain = await startHttpServer((req, res) => res.end('hi'))
  t.after(plain.close)
  const cleartext = await runDyno(['load', '--http2', '-a', '5', plain.url])
  assert.equal(cleartext.code, 2)
  assert.match(cleartext.stderr, /^dyno load: 127\.0\.0\.1:\d+ does not speak HTTP\/2 without TLS \(h2c prior knowledge\).*drop --http2/)
  assert.equal(cleartext.stderr.trim().split('\n').length, 1)

  const secure = https.createServer({ key: fixture('server-key.pem'), cert: fixture('server.pem') }, (req, res) => res.end('hi'))
  await new Promise((resolve) => secure.listen(0, '127.0.0.1', () => resolve(undefined)))
  t.after(() => new Promise((resolve) => { secure.closeAllConnections(); secure.close(() => resolve(undefined)) }))
  const port = /** @type {import('node:net').AddressInfo} */ (secure.address()).port
  await assert.rejects(load({ url: `https://127.0.0.1:${port}/`, http2: true, amount: 5, insecure: true }), (err) => {
    assert.equal(/** @type {any} */ (err).code, 'DYNO_NO_HTTP2')
    assert.match(/** @type {Error} */ (err).message, /does not offer HTTP\/2 in its TLS handshake/)
    return true
  })
})

test('HTTP/2 flags that do not fit: --streams without --http2, -p with it', async () => {
  const streams = await runDyno(['load', '--streams', '4', '-a', '5', 'http://127.0.0.1:9/'])
  assert.equal(streams.code, 2)
  assert.match(streams.stderr, /--streams is HTTP\/2's .*add --http2/)
  const pipelined = await runDyno(['load', '--http2', '-p', '4', '-a', '5', 'http://127.0.0.1:9/'])
  assert.equal(pipelined.code, 2)
  assert.match(pipelined.stderr, /with --http2, give the requests in flight on a connection as --streams 4/)
  const absurd = await runDyno(['load', '--http2', '--streams', '1e9', '-a', '5', 'http://127.0.0.1:9/'])
  assert.equal(absurd.code, 2)
  assert.equal(absurd.stderr.trim().split('\n').length, 1)
  const tooMany = await runDyno(['load', '--http2', '--streams', '10000', '-c', '1000', '-a', '5', 'http://127.0.0.1:9/'])
  assert.equal(tooMany.code, 2)
  assert.match(tooMany.stderr, /-c 1000 with --streams 10000 keeps 10,000,000 requests in flight; .*lower -c or --streams$/m)
})

test('request hooks over HTTP/2: setupRequest builds each request (at once or later), onResponse reads each body', async (t) => {
  /** @type {string[]} */
  const bodies = []
  const server = await startHttp2Server({
    onStream: (stream) => {
      let body = ''
      stream.on('data', (chunk) => { body += chunk })
      stream.on('end', () => {
        bodies.push(body)
        stream.respond({ ':status': 201 })
        stream.end(`got ${body}`)
      })
      return true
    }
  })
  t.after(server.close)
  let seen = 0
  const result = await load({
    url: server.url,
    http2: true,
    streams: 3,
    connections: 1,
    amount: 30,
    requests: [
      { method: 'POST', setupRequest: (req, context) => ({ ...req, body: `n=${(context.n = (context.n ?? 0) + 1)}` }) },
      { method: 'POST', setupRequest: async (req) => ({ ...req, body: 'later' }), onResponse: (status, body) => { if (status === 201 && body === 'got later') seen++ } }
    ]
  })
  assert.equal(result.requests.completed, 30)
  assert.deepEqual(result.statusCodes, { 201: 30 })
  assert.equal(seen, 15)
  assert.equal(bodies.filter((b) => b === 'later').length, 15)
  assert.deepEqual(bodies.filter((b) => b.startsWith('n=')).sort(), Array.from({ length: 15 }, (_, i) => `n=${i + 1}`).sort())
})

test('HTTP/2 in worker threads: each worker its share of the connections', async (t) => {
  const server = await startHttp2Server()
  t.after(server.close)
  const result = await load({ url: server.url, http2: true, streams: 2, connections: 4, workers: 2, amount: 200 })
  assert.equal(result.requests.completed, 200)
  assert.equal(result.errors.total, 0)
  assert.equal(server.stats.mostOpen, 2)
})

test('a request whose hook outlived its timeout is not sent when the hook resolves at last', async (t) => {
  const server = await startHttp2Server()
  t.after(server.close)
  const result = await load({
    url: server.url,
    http2: true,
    connections: 1,
    amount: 6,
    timeout: 0.15,
    requests: [
      { path: '/fast' },
      { path: '/slow', setupRequest: async (req) => { await new Promise((resolve) => setTimeout(resolve, 400)); return req } }
    ]
  })
  // Every /slow timed out while its hook ran: none of them may reach the server afterwards, on another request's stream.
  assert.equal(result.errors.timeout, 3)
  assert.equal(result.requests.completed, 3)
  await new Promise((resolve) => setTimeout(resolve, 500))
  assert.equal(server.stats.requests, 3)
})

test('large bodies both ways: 1 MB responses through our windows, 200 kB requests kept to the server\'s small ones', async (t) => {
  const big = Buffer.alloc(1 << 20, 'a')
  /** @type {number[]} */
  const received = []
  const server = await startHttp2Server({
    // Small windows and large frames on the server's side: the bodies dyno sends wait for its WINDOW_UPDATEs.
    settings: { initialWindowSize: 16_384, maxFrameSize: 40_000 },
    onStream: (stream) => {
      let length = 0
      stream.on('data', (chunk) => { length += chunk.length })
      stream.on('end', () => {
        received.push(length)
        stream.respond({ ':status': 200 })
        stream.end(big)
      })
      return true
    }
  })
  t.after(server.close)
  // Our receive windows are replenished far sooner than in a real run, so that the WINDOW_UPDATEs are seen to be right.
  const replenishAt = Http2Connection.replenishAt
  Http2Connection.replenishAt = 300_000
  t.after(() => { Http2Connection.replenishAt = replenishAt })
  let lengths = 0
  const result = await load({
    url: server.url,
    http2: true,
    streams: 4,
    connections: 2,
    amount: 40,
    method: 'POST',
    body: Buffer.alloc(200_000, 'b'),
    requests: [{}, { onResponse: (status, body) => { if (status === 200 && body.length === big.length) lengths++ } }]
  })
  assert.equal(result.requests.completed, 40)
  assert.equal(result.errors.total, 0)
  assert.equal(lengths, 20)
  assert.ok(result.bytes.total > 40 * big.length)
  assert.deepEqual(new Set(received), new Set([200_000]))
})

test('a connection whose stream ids run out opens a new one and goes on', async (t) => {
  const server = await startHttp2Server({ settings: { maxConcurrentStreams: 1 } })
  t.after(server.close)
  const maxStreamId = Http2Connection.maxStreamId
  Http2Connection.maxStreamId = 21
  t.after(() => { Http2Connection.maxStreamId = maxStreamId })
  const result = await load({
    url: server.url,
    http2: true,
    streams: 3,
    connections: 1,
    amount: 100
  })
  assert.equal(result.requests.completed, 100)
  assert.equal(result.errors.total, 0)
  assert.equal(result.streamLimit, 1)
  assert.equal(server.stats.mostOpen, 1)
  assert.equal(server.stats.requests, 100)
  // Streams 1, 3, …, 21: 11 requests a connection.
  assert.equal(server.stats.sessions, 10)
})

test('a server that sends GOAWAY on every connection before answering: the run ends after the timeout and says so', async (t) => {
  // SETTINGS, then GOAWAY with last stream 0, to every connection.
  const settings = Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0])
  const goaway = Buffer.from([0, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
  let connections = 0
  const server = net.createServer((socket) => {
    connections++
    socket.on('error', () => {})
    socket.end(Buffer.concat([settings, goaway]))
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  t.after(() => { server.close() })
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port
  const run = await runDyno(['load', '--http2', '-a', '5', '-t', '0.5', '--json', `http://127.0.0.1:${port}/`])
  assert.equal(run.code, 1)
  assert.match(run.stderr, /the target stopped taking connections during the run \(\d+ failed, none answered since\)/)
  const result = JSON.parse(run.stdout)
  assert.ok(result.errors.goaway > 0)
  // Backed off as after refused connects: not a storm of thousands.
  assert.ok(connections < 500, `${connections} connections`)
})
