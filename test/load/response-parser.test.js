import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ResponseParser, SavedHead } from '../../lib/load/response-parser.js'

/**
 * Feeds `wire` to a parser, split at the given offsets, and returns what it saw.
 * @param {string | Buffer} wire
 * @param {{ splits?: number[], head?: boolean[], capture?: boolean, close?: boolean }} [options]
 */
function parse (wire, options = {}) {
  const bytes = Buffer.isBuffer(wire) ? wire : Buffer.from(wire, 'latin1')
  /** @type {{ status: number, bodyBytes: number, willClose: boolean, body: string | null }[]} */
  const responses = []
  /** @type {string[]} */
  const errors = []
  const head = options.head ?? []
  const parser = new ResponseParser({
    expectsNoBody: () => head[responses.length] === true,
    onResponse: (status, bodyBytes, willClose, body) => responses.push({ status, bodyBytes, willClose, body: body && body.toString() }),
    onParseError: (kind) => errors.push(kind)
  }, options.capture)
  const cuts = [0, ...(options.splits ?? []), bytes.length]
  for (let i = 0; i < cuts.length - 1; i++) {
    // Copy each piece into a reused buffer, as the engine's shared read buffer does.
    const shared = Buffer.alloc(bytes.length + 8, 0x58)
    bytes.copy(shared, 0, cuts[i], cuts[i + 1])
    parser.execute(shared, 0, cuts[i + 1] - cuts[i])
  }
  if (options.close) parser.finish()
  return { responses, errors }
}

const twoResponses =
  'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello' +
  'HTTP/1.1 404 Not Found\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n10;x=y\r\n0123456789abcdef\r\n0\r\nTrailer: 1\r\n\r\n'

test('parses several responses in one chunk', () => {
  const { responses, errors } = parse(twoResponses, { capture: true })
  assert.deepEqual(errors, [])
  assert.deepEqual(responses, [
    { status: 200, bodyBytes: 5, willClose: false, body: 'hello' },
    { status: 404, bodyBytes: 19, willClose: false, body: 'abc0123456789abcdef' }
  ])
})

test('gives the same result however the bytes are split', () => {
  const whole = parse(twoResponses, { capture: true })
  for (let cut = 1; cut < twoResponses.length; cut++) {
    assert.deepEqual(parse(twoResponses, { splits: [cut], capture: true }), whole, `split at ${cut}`)
  }
  const everyByte = Array.from({ length: twoResponses.length - 1 }, (_, i) => i + 1)
  assert.deepEqual(parse(twoResponses, { splits: everyByte, capture: true }), whole)
})

test('responses without a body: HEAD, 204, 304', () => {
  const wire =
    'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n' +
    'HTTP/1.1 204 No Content\r\n\r\n' +
    'HTTP/1.1 304 Not Modified\r\nContent-Length: 50\r\n\r\n' +
    'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'
  const { responses, errors } = parse(wire, { head: [true] })
  assert.deepEqual(errors, [])
  assert.deepEqual(responses.map((r) => [r.status, r.bodyBytes]), [[200, 0], [204, 0], [304, 0], [200, 2]])
})

test('skips 1xx interim responses', () => {
  const wire = 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n'
  assert.deepEqual(parse(wire).responses.map((r) => r.status), [201])
})

test('Connection: close and HTTP/1.0 mark the connection as closing', () => {
  assert.equal(parse('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n').responses[0].willClose, true)
  assert.equal(parse('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n').responses[0].willClose, true)
  assert.equal(parse('HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n').responses[0].willClose, false)
  assert.equal(parse('HTTP/1.1 200 OK\r\nConnection: keep-alive, Upgrade\r\nContent-Length: 0\r\n\r\n').responses[0].willClose, false)
})

test('a body without length ends with the connection', () => {
  const wire = 'HTTP/1.1 200 OK\r\n\r\nsome body'
  assert.deepEqual(parse(wire).responses, [])
  const { responses } = parse(wire, { close: true, capture: true })
  assert.deepEqual(responses, [{ status: 200, bodyBytes: 9, willClose: true, body: 'some body' }])
})

test('bare LF line endings are accepted', () => {
  const { responses, errors } = parse('HTTP/1.1 200 OK\nContent-Length: 2\n\nok')
  assert.deepEqual(errors, [])
  assert.equal(responses[0].bodyBytes, 2)
})

test('large bodies are counted, not kept', () => {
  const body = Buffer.alloc(3_000_000, 97)
  const wire = Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`), body])
  const { responses } = parse(wire, { splits: [10, 65536, 65536 * 20] })
  assert.deepEqual(responses, [{ status: 200, bodyBytes: body.length, willClose: false, body: null }])
})

test('garbage is an error, reported once', () => {
  assert.deepEqual(parse('SSH-2.0-OpenSSH_9.2\r\n\r\n').errors, ['invalid-status'])
  assert.deepEqual(parse('HTTP/1.1 2x0 OK\r\n\r\n').errors, ['invalid-status'])
  assert.deepEqual(parse('HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n').errors, ['invalid-header'])
  assert.deepEqual(parse('HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n').errors, ['invalid-header'])
  assert.deepEqual(parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n').errors, ['invalid-chunk'])
  assert.deepEqual(parse('HTTP/1.1 101 Switching Protocols\r\n\r\n').errors, ['upgrade'])
  assert.deepEqual(parse('HTTP/1.1 200 OK\r\nX: ' + 'a'.repeat(20_000)).errors, ['header-too-large'])
})

test('chunked is the body\'s framing only as the last coding of Transfer-Encoding, spaces and case aside', () => {
  const last = parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip ,  Chunked \r\n\r\n3\r\nabc\r\n0\r\n\r\n')
  assert.deepEqual(last.responses.map((r) => [r.status, r.bodyBytes]), [[200, 3]])
  // Not last: the body runs to the close, as RFC 9112 says.
  const first = parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\nabcdef', { close: true })
  assert.deepEqual(first.responses.map((r) => [r.status, r.bodyBytes]), [[200, 6]])
})

/**
 * One parser fed `chunks`, each alone at the start of a buffer, as the
 * engine's shared read buffer holds them; returns what it saw.
 * @param {string[]} chunks @param {{ head?: boolean[], wantsDate?: () => boolean }} [options]
 */
function parseChunks (chunks, options = {}) {
  /** @type {{ status: number, bodyBytes: number, willClose: boolean }[]} */
  const responses = []
  /** @type {string[]} */
  const dates = []
  const head = options.head ?? []
  const parser = new ResponseParser({
    expectsNoBody: () => head[responses.length] === true,
    onResponse: (status, bodyBytes, willClose) => responses.push({ status, bodyBytes, willClose }),
    onParseError: (kind) => assert.fail(kind),
    wantsDate: options.wantsDate,
    onDate: (date) => dates.push(date)
  })
  const shared = Buffer.alloc(4096)
  for (const chunk of chunks) {
    const n = shared.write(chunk, 'latin1')
    parser.execute(shared, 0, n)
  }
  return { responses, dates, parser }
}

const nginxHead = (length = 11, date = 'Fri, 27 Nov 2026 00:00:00 GMT', connection = 'keep-alive') =>
  `HTTP/1.1 200 OK\r\nServer: nginx\r\nDate: ${date}\r\nContent-Type: text/plain\r\nContent-Length: ${length}\r\nConnection: ${connection}\r\n\r\n`

test('a head the same as the last one reads as it did, and one byte apart reads anew', () => {
  const { responses, parser } = parseChunks([
    nginxHead() + 'hello world',
    nginxHead() + 'hello world',
    nginxHead(13) + 'hello, world!',
    nginxHead(13) + 'hello, world!',
    nginxHead(13, undefined, 'close') + 'hello, world!'
  ])
  assert.ok(parser.saved.length > 0, 'the last head was kept')
  assert.deepEqual(responses, [
    { status: 200, bodyBytes: 11, willClose: false },
    { status: 200, bodyBytes: 11, willClose: false },
    { status: 200, bodyBytes: 13, willClose: false },
    { status: 200, bodyBytes: 13, willClose: false },
    { status: 200, bodyBytes: 13, willClose: true }
  ])
})

test('a head the same as the last one still answers a HEAD request without a body', () => {
  const { responses } = parseChunks([nginxHead(5) + 'hello', nginxHead(5), nginxHead(5) + 'hello'], { head: [false, true, false] })
  assert.deepEqual(responses.map((r) => r.bodyBytes), [5, 0, 5])
})

test('a head the same as the last one still gives its Date when the clock wants it', () => {
  const { dates } = parseChunks([nginxHead() + 'hello world', nginxHead() + 'hello world', nginxHead() + 'hello world'], { wantsDate: () => true })
  assert.deepEqual(dates, Array(3).fill('Fri, 27 Nov 2026 00:00:00 GMT'))
})

test('pipelined responses with the same head, at any alignment, split anywhere', () => {
  const wire = (nginxHead() + 'hello world').repeat(3) + (nginxHead(2) + 'ok').repeat(2)
  const whole = parseChunks([wire]).responses
  assert.deepEqual(whole.map((r) => r.bodyBytes), [11, 11, 11, 2, 2])
  for (let cut = 1; cut < wire.length; cut += 7) {
    assert.deepEqual(parseChunks([wire.slice(0, cut), wire.slice(cut)]).responses, whole, `split at ${cut}`)
  }
})

test('parsers that share a saved head take each other\'s heads as read, once each has read one itself', () => {
  const saved = new SavedHead()
  /** @type {string[]} */
  const seen = []
  /** @type {Map<ResponseParser, number>} */
  const matched = new Map()
  const parserFor = (/** @type {string} */ name) => {
    const parser = new ResponseParser({
      expectsNoBody: () => false,
      onResponse: (status, bodyBytes, willClose) => seen.push(`${name} ${status} ${bodyBytes} ${willClose}`),
      onParseError: (kind) => assert.fail(kind)
    }, false, saved)
    const sameHead = parser.sameHead
    parser.sameHead = function (...args) {
      const same = sameHead.apply(this, args)
      if (same) matched.set(parser, (matched.get(parser) ?? 0) + 1)
      return same
    }
    return parser
  }
  const a = parserFor('a')
  const b = parserFor('b')
  const feed = (/** @type {ResponseParser} */ parser, /** @type {string} */ wire) => {
    const buffer = Buffer.from(wire, 'latin1')
    parser.execute(buffer, 0, buffer.length)
  }
  feed(a, nginxHead() + 'hello world')
  assert.ok(saved.length > 0, 'a kept its head where b sees it')
  feed(b, nginxHead() + 'hello world')
  assert.equal(matched.get(b), undefined, 'b read its first head itself')
  feed(a, nginxHead(13) + 'hello, world!')
  feed(b, nginxHead(13) + 'hello, world!')
  assert.equal(matched.get(b), 1, 'b took the head a read')
  feed(b, nginxHead(13, undefined, 'close') + 'hello, world!')
  assert.deepEqual(seen, ['a 200 11 false', 'b 200 11 false', 'a 200 13 false', 'b 200 13 false', 'b 200 13 true'])
})
