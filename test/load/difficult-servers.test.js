import assert from 'node:assert/strict'
import { test } from 'node:test'
import { load } from '../../lib/index.js'
import { countRequests, startHttpServer, startRawServer } from '../helpers/servers.js'

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world'

test('responses written one byte at a time', async (t) => {
  const target = await startRawServer((socket, data, state) => {
    const bytes = Buffer.from(OK.repeat(countRequests(state, data)))
    let i = 0
    const next = () => {
      if (i === bytes.length || socket.destroyed) return
      socket.write(bytes.subarray(i, ++i))
      setImmediate(next)
    }
    next()
  })
  t.after(target.close)
  const result = await load({ url: target.url, amount: 100, connections: 4 })
  assert.equal(result.requests.completed, 100)
  assert.equal(result.errors.total, 0)
})

test('chunked bodies, in many pieces, with trailers', async (t) => {
  const target = await startHttpServer((req, res) => {
    res.setHeader('trailer', 'x-checksum')
    for (let i = 0; i < 20; i++) res.write(`piece ${i} `)
    res.addTrailers({ 'x-checksum': 'abc' })
    res.end()
  })
  t.after(target.close)
  let body = ''
  const result = await load({
    url: target.url,
    amount: 200,
    connections: 4,
    pipelining: 3,
    requests: [{ onResponse: (status, text) => { body = text } }]
  })
  assert.equal(result.requests.completed, 200)
  assert.equal(result.errors.total, 0)
  assert.match(body, /^piece 0 piece 1 .*piece 19 $/)
})

test('a server that closes after each response: reconnect and go on', async (t) => {
  const target = await startHttpServer((req, res) => {
    res.setHeader('connection', 'close')
    res.end('bye')
  })
  t.after(target.close)
  const result = await load({ url: target.url, amount: 300, connections: 5 })
  assert.equal(result.requests.completed, 300)
  assert.equal(result.errors.total, 0)
  assert.equal(target.stats.requests, 300)
  // One connection per request, plus at most one spare per connection at the end.
  assert.ok(target.stats.connections >= 300 && target.stats.connections <= 305, `${target.stats.connections} connections`)
})

test('HTTP/1.0 responses framed by the connection closing', async (t) => {
  const target = await startRawServer((socket, data, state) => {
    if (countRequests(state, data) > 0) socket.end('HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil close')
  })
  t.after(target.close)
  const result = await load({ url: target.url, amount: 50, connections: 2 })
  assert.equal(result.requests.completed, 50)
  assert.equal(result.errors.total, 0)
})

test('connection resets are counted as resets, and the run goes on', async (t) => {
  let n = 0
  const target = await startRawServer((socket, data, state) => {
    for (let k = countRequests(state, data); k > 0; k--) {
      if (++n % 4 === 0) socket.resetAndDestroy()
      else socket.write(OK)
    }
  })
  t.after(target.close)
  // Every fourth request is answered with a reset, and each connection has one in flight.
  const result = await load({ url: target.url, amount: 400, connections: 4 })
  assert.equal(n, 400)
  assert.equal(result.requests.completed, 300)
  assert.equal(result.errors.reset, 100)
  assert.equal(result.errors.total, 100)
})

test('a server that closes mid-response', async (t) => {
  const target = await startRawServer((socket, data, state) => {
    if (countRequests(state, data) > 0) socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part')
  })
  t.after(target.close)
  const result = await load({ url: target.url, amount: 20, connections: 2 })
  assert.equal(result.requests.completed, 0)
  assert.equal(result.errors.closed, 20)
  assert.equal(result.errors.total, 20)
})

test('garbage instead of HTTP is counted as invalid responses', async (t) => {
  const target = await startRawServer((socket, data, state) => {
    if (countRequests(state, data) > 0) socket.write('SSH-2.0-OpenSSH_9.2p1\r\n')
  })
  t.after(target.close)
  const result = await load({ url: target.url, amount: 20, connections: 2 })
  assert.equal(result.requests.completed, 0)
  assert.equal(result.errors.invalid, 20)
  assert.equal(result.errors.total, 20)
})

test('a silent server: timeouts, and the run still ends on time', { timeout: 30_000 }, async (t) => {
  const target = await startRawServer(() => {})
  t.after(target.close)
  const result = await load({ url: target.url, duration: 1.2, timeout: 0.3, connections: 3 })
  assert.ok(result.duration >= 1.19, `ran ${result.duration} s`)
  assert.equal(result.requests.completed, 0)
  assert.equal(result.errors.total, result.errors.timeout)
  // Each connection timed out at least once, and at most once per 0.3 s it ran.
  const most = 3 * Math.floor(result.duration / 0.3)
  assert.ok(result.errors.timeout >= 3 && result.errors.timeout <= most, `timeouts: ${result.errors.timeout}, at most ${most}`)
})

test('a 10 MB body', async (t) => {
  const body = Buffer.alloc(10 * 1024 * 1024, 120)
  const target = await startHttpServer((req, res) => res.end(body))
  t.after(target.close)
  const result = await load({ url: target.url, amount: 8, connections: 2 })
  assert.equal(result.requests.completed, 8)
  assert.ok(result.bytes.total > 8 * body.length)
  assert.equal(result.errors.total, 0)
})

test('non-2xx responses are counted by status code', async (t) => {
  let n = 0
  const target = await startHttpServer((req, res) => {
    res.statusCode = ++n % 2 === 0 ? 503 : n % 3 === 0 ? 404 : 200
    res.end()
  })
  t.after(target.close)
  const result = await load({ url: target.url, amount: 600, connections: 1 })
  assert.equal(result.statusCodes['503'], 300)
  assert.equal(result.statusCodes['404'], 100)
  assert.equal(result.statusCodes['200'], 200)
  assert.equal(result.non2xx, 400)
})

test('HEAD requests, 204 and 304 responses carry no body', async (t) => {
  const target = await startHttpServer((req, res) => {
    if (req.url === '/none') res.statusCode = 204
    else if (req.url === '/same') res.statusCode = 304
    res.setHeader('content-length', 1000)
    res.end(req.method === 'HEAD' || res.statusCode !== 200 ? undefined : Buffer.alloc(1000))
  })
  t.after(target.close)
  const result = await load({
    url: target.url,
    amount: 300,
    connections: 2,
    pipelining: 2,
    requests: [{ method: 'HEAD', path: '/' }, { path: '/none' }, { path: '/same' }]
  })
  assert.equal(result.requests.completed, 300)
  assert.equal(result.errors.total, 0)
})
