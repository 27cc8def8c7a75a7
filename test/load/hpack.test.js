import assert from 'node:assert/strict'
import http2 from 'node:http2'
import net from 'node:net'
import { test } from 'node:test'
import { ResponseHead, STATIC_TABLE, encodeHeaderBlock, huffmanCode, huffmanDecode, huffmanEncode } from '../../lib/load/hpack.js'
import { END_HEADERS, FrameReader, HEADERS, SETTINGS_ACK, clientPreface, headersTemplate, writeHeaders } from '../../lib/load/http2-frames.js'

/** @param {string} hex */
const bytes = (hex) => Buffer.from(hex.replace(/\s/g, ''), 'hex')

/**
 * Every field of a header block, decoded.
 * @param {Buffer} block @param {boolean} [wantDate]
 */
function decodeAll (block, wantDate = true) {
  const head = new ResponseHead()
  /** @type {[string, string][]} */
  const fields = []
  const ok = head.decode(block, 0, block.length, wantDate, (name, value) => fields.push([name, value]))
  return { ok, status: head.status, date: head.date, error: head.error, fields }
}

test('the Huffman codes of the digits, and a few others, are those of RFC 7541 Appendix B', () => {
  const digits = ['00000', '00001', '00010', '011001', '011010', '011011', '011100', '011101', '011110', '011111']
  assert.deepEqual(Array.from({ length: 10 }, (_, i) => huffmanCode(48 + i)), digits)
  assert.equal(huffmanCode(32), '010100') // ' '
  assert.equal(huffmanCode(97), '00011') // 'a'
  assert.equal(huffmanCode(0), '1111111111000')
  assert.equal(huffmanCode(255), '11111111111111111111101110')
  assert.equal(huffmanCode(256), '1'.repeat(30)) // EOS
})

test('Huffman coding: the examples of RFC 7541 Appendix C, and every byte there and back', () => {
  const examples = {
    'www.example.com': 'f1e3 c2e5 f23a 6ba0 ab90 f4ff',
    'no-cache': 'a8eb 1064 9cbf',
    'custom-key': '25a8 49e9 5ba9 7d7f',
    'custom-value': '25a8 49e9 5bb8 e8b4 bf',
    302: '6402',
    private: 'aec3 771a 4b',
    'Mon, 21 Oct 2013 20:13:21 GMT': 'd07a be94 1054 d444 a820 0595 040b 8166 e082 a62d 1bff',
    'https://www.example.com': '9d29 ad17 1863 c78f 0b97 c8e9 ae82 ae43 d3'
  }
  const out = Buffer.alloc(64)
  for (const [text, hex] of Object.entries(examples)) {
    assert.deepEqual(huffmanEncode(Buffer.from(text)), bytes(hex), text)
    const coded = bytes(hex)
    const n = huffmanDecode(coded, 0, coded.length, out)
    assert.equal(out.toString('latin1', 0, n), text)
  }
  const every = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7) % 256))
  const coded = huffmanEncode(every)
  const back = Buffer.alloc(every.length)
  assert.equal(huffmanDecode(coded, 0, coded.length, back), every.length)
  assert.deepEqual(back, every)
})

test('malformed Huffman: padding that is not ones, 8 bits of padding or more, EOS itself', () => {
  const out = Buffer.alloc(16)
  assert.equal(huffmanDecode(bytes('00'), 0, 1, out), -1) // '0' and then 3 zero bits
  assert.equal(huffmanDecode(bytes('07 ff'), 0, 2, out), -1) // '0' then 11 bits of ones
  assert.equal(huffmanDecode(bytes('ff ff ff ff'), 0, 4, out), -1) // EOS
  assert.equal(huffmanDecode(bytes('07'), 0, 1, out), 1) // '0' and 3 bits of ones
})

test('a response block of RFC 7541 C.6.1 (incremental indexing, into a table of 0 bytes): status, date, the rest skipped', () => {
  const block = bytes(`4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6
    2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3`)
  const all = decodeAll(block)
  assert.equal(all.ok, true)
  assert.equal(all.status, 302)
  assert.equal(all.date, 'Mon, 21 Oct 2013 20:13:21 GMT')
  assert.deepEqual(all.fields, [
    [':status', '302'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'], ['location', 'https://www.example.com']
  ])
  const head = new ResponseHead()
  assert.equal(head.decode(block, 0, block.length, false), true)
  assert.equal(head.date, null)
})

test('indexed statuses, a table size update to 0, and what a block must not hold', () => {
  assert.equal(decodeAll(bytes('20 8d')).status, 404)
  assert.equal(decodeAll(bytes('3f e1 1f')).ok, false, 'a table size update to 4096')
  assert.match(decodeAll(bytes('be')).error ?? '', /entry 62 of an empty dynamic table/)
  assert.equal(decodeAll(bytes('48 03 32 30')).ok, false, 'a value cut short')
  assert.equal(decodeAll(bytes('48 02 32 30')).ok, false, 'a two-digit status')
  assert.equal(decodeAll(bytes('48')).ok, false, 'a field without its value')
  assert.equal(decodeAll(bytes('0f')).ok, false, 'an integer cut short')
  // A literal name: :status and date are still recognized, Huffman-coded or not.
  const literal = Buffer.concat([bytes('00 07'), Buffer.from(':status'), bytes('03'), Buffer.from('201'),
    bytes('00'), Buffer.from([0x80 | huffmanEncode(Buffer.from('date')).length]), huffmanEncode(Buffer.from('date')), bytes('03'), Buffer.from('now')])
  const decoded = decodeAll(literal)
  assert.equal(decoded.status, 201)
  assert.equal(decoded.date, 'now')
})

test('request blocks: static entries indexed, others literal and never indexed, long values, table size 0 first', () => {
  const block = encodeHeaderBlock([
    [':method', 'GET'], [':scheme', 'https'], [':authority', 'example.com'], [':path', '/a/b'],
    ['accept-encoding', 'gzip, deflate'], ['user-agent', 'dyno'], ['x-custom', 'x'.repeat(300)]
  ])
  assert.equal(block[0], 0x20)
  const all = decodeAll(block)
  assert.equal(all.ok, true)
  assert.deepEqual(all.fields, [
    [':method', 'GET'], [':scheme', 'https'], [':authority', 'example.com'], [':path', '/a/b'],
    ['accept-encoding', 'gzip, deflate'], ['user-agent', 'dyno'], ['x-custom', 'x'.repeat(300)]
  ])
  assert.equal(STATIC_TABLE.length, 61)
  assert.deepEqual(STATIC_TABLE[58], ['vary', ''])
})

/**
 * Sends `requests` to a node:http2 server over a raw socket, framed and
 * encoded by dyno's modules, and returns each response's header block.
 * @param {number} port @param {[string, string][][]} requests @param {number} expected header blocks to wait for
 * @returns {Promise<Buffer[]>}
 */
function exchange (port, requests, expected) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const blocks = []
    const socket = net.connect(port, '127.0.0.1')
    const out = [clientPreface(), SETTINGS_ACK]
    requests.forEach((fields, i) => {
      const template = headersTemplate(encodeHeaderBlock(fields), true, 16_384)
      const frame = Buffer.alloc(template.length)
      writeHeaders(template, frame, 0, 2 * i + 1)
      out.push(frame)
    })
    socket.write(Buffer.concat(out))
    const reader = new FrameReader({
      onFrame: (type, flags, streamId, buf, start, end) => {
        if (type === HEADERS) {
          assert.ok(flags & END_HEADERS)
          blocks.push(Buffer.from(buf.subarray(start, end)))
          if (blocks.length === expected) {
            socket.destroy()
            resolve(blocks)
          }
        }
        return true
      },
      onFrameError: (why) => reject(new Error(why))
    })
    socket.on('data', (data) => reader.read(data, 0, data.length))
    socket.on('error', reject)
  })
}

test('blocks node:http2 (nghttp2) encodes: every status, Huffman-coded values of every printable byte, many fields', async (t) => {
  const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('').trim()
  /** @type {http2.OutgoingHttpHeaders[]} */
  const answers = [
    { ':status': 200 },
    { ':status': 201, 'x-request-id': 'abc-123', 'content-type': 'application/json' },
    { ':status': 404, 'cache-control': 'no-cache', vary: 'accept-encoding' },
    { ':status': 503, 'retry-after': '120', 'x-printable': printable, 'set-cookie': ['a=1; Path=/', 'b=2'] },
    { ':status': 302, location: 'https://www.example.com/somewhere?over=the&rainbow=' + 'y'.repeat(200) },
    { ':status': 599 },
    // Preceded by an interim 103 (below).
    { ':status': 204, 'x-after': 'early hints' }
  ]
  /** @type {http2.IncomingHttpHeaders[]} */
  const seen = []
  const server = http2.createServer()
  server.on('stream', (stream, headers) => {
    seen.push(headers)
    const answer = answers[Number(headers[':path']?.slice(1))]
    if (answer[':status'] === 204) stream.additionalHeaders({ ':status': 103, link: '</style.css>; rel=preload' })
    stream.respond(answer, { endStream: true })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  t.after(() => server.close())
  const port = /** @type {net.AddressInfo} */ (server.address()).port
  const requests = answers.map((_, i) => /** @type {[string, string][]} */ ([
    [':method', 'GET'], [':scheme', 'http'], [':authority', 'dyno.test'], [':path', `/${i}`], ['x-mine', `value ${i}`]
  ]))
  const blocks = await exchange(port, requests, answers.length + 1)
  assert.deepEqual(seen.map((h) => [h[':authority'], h['x-mine']]), answers.map((_, i) => ['dyno.test', `value ${i}`]))
  const decoded = blocks.map((block) => decodeAll(block))
  for (const d of decoded) assert.equal(d.ok, true, d.error ?? '')
  const byStatus = new Map(decoded.map((d) => [d.status, d]))
  assert.deepEqual([...byStatus.keys()].sort(), [103, 200, 201, 204, 302, 404, 503, 599])
  assert.deepEqual(byStatus.get(103)?.fields.find(([name]) => name === 'link'), ['link', '</style.css>; rel=preload'])
  for (const answer of answers) {
    const d = /** @type {ReturnType<typeof decodeAll>} */ (byStatus.get(/** @type {number} */ (answer[':status'])))
    const fields = Object.fromEntries(d.fields.filter(([name]) => name !== 'set-cookie'))
    for (const [name, value] of Object.entries(answer)) {
      if (name === 'set-cookie') assert.deepEqual(d.fields.filter(([n]) => n === name).map(([, v]) => v), value)
      else assert.equal(fields[name], String(value), name)
    }
    assert.equal(Number.isFinite(Date.parse(/** @type {string} */ (d.date))), true, 'node:http2 sends a Date header')
  }
})

test(':status as a literal may name any static :status entry; a status past 599 is refused as HTTP/1.1 refuses it', () => {
  // Literal without indexing, name index 14 (":status: 500"), value "201".
  assert.equal(decodeAll(bytes('0e 03 323031')).status, 201)
  // Never indexed, name index 9, value "418".
  assert.equal(decodeAll(bytes('19 03 343138')).status, 418)
  const tooHigh = decodeAll(bytes('08 03 373030'))
  assert.equal(tooHigh.ok, false)
  assert.match(String(tooHigh.error), /a :status of 700/)
})
