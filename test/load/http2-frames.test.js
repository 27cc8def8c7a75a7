import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  CONTINUATION, DATA, END_HEADERS, END_STREAM, FRAME_HEADER, FrameReader, HEADERS, MAX_WINDOW, PING, SETTINGS, WINDOW_UPDATE,
  clientPreface, frame, headersTemplate, pingAck, rstStream, windowUpdate, writeData, writeHeaders
} from '../../lib/load/http2-frames.js'

/**
 * A reader whose frames land in a list, copied.
 * @param {number} [maxFrameSize]
 */
function collector (maxFrameSize) {
  /** @type {{ type: number, flags: number, streamId: number, payload: string }[]} */
  const frames = []
  /** @type {string[]} */
  const errors = []
  const reader = new FrameReader({
    onFrame: (type, flags, streamId, buf, start, end) => {
      frames.push({ type, flags, streamId, payload: buf.subarray(start, end).toString('hex') })
      return true
    },
    onFrameError: (why) => { errors.push(why) }
  }, maxFrameSize)
  return { reader, frames, errors }
}

test('the client preface: the magic, SETTINGS (no push, widest stream windows, no dynamic table), the connection window opened', () => {
  const preface = clientPreface()
  assert.equal(preface.subarray(0, 24).toString('latin1'), 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n')
  const { reader, frames } = collector()
  assert.equal(reader.read(preface, 24, preface.length), true)
  assert.equal(frames.length, 2)
  assert.deepEqual(frames[0], { type: SETTINGS, flags: 0, streamId: 0, payload: '000200000000' + '00047fffffff' + '000100000000' })
  assert.equal(frames[1].type, WINDOW_UPDATE)
  assert.equal(frames[1].streamId, 0)
  assert.equal(Number.parseInt(frames[1].payload, 16) + 65_535, MAX_WINDOW)
})

test('a reader cuts frames out of any chunking: many in one read, one split across many, byte by byte', () => {
  const body = Buffer.alloc(40_000, 7)
  const stream = Buffer.concat([
    frame(SETTINGS, 0, 0),
    frame(HEADERS, END_HEADERS, 1, Buffer.from([0x88])),
    frame(DATA, 0, 1, body.subarray(0, 16_384)),
    frame(DATA, 0, 1, body.subarray(16_384, 32_768)),
    frame(DATA, END_STREAM, 1, body.subarray(32_768)),
    pingAck(Buffer.from('abcdefgh')),
    rstStream(3, 8),
    windowUpdate(5, 1000)
  ])
  const whole = collector()
  whole.reader.read(stream, 0, stream.length)
  assert.equal(whole.frames.length, 8)
  assert.deepEqual(whole.frames.map((f) => f.type), [SETTINGS, HEADERS, DATA, DATA, DATA, PING, 3, WINDOW_UPDATE])
  assert.equal(whole.frames[4].payload, body.subarray(32_768).toString('hex'))
  assert.equal(whole.frames[7].streamId, 5)

  for (const size of [1, 2, 5, 8, 9, 10, 13, 100, 4096, 16_393, 20_000]) {
    const chunked = collector()
    for (let at = 0; at < stream.length; at += size) {
      // Each read in a buffer of its own that is then scribbled over, as a shared read buffer is.
      const chunk = Buffer.from(stream.subarray(at, at + size))
      assert.equal(chunked.reader.read(chunk, 0, chunk.length), true)
      chunk.fill(0xee)
    }
    assert.deepEqual(chunked.frames, whole.frames, `chunks of ${size} bytes`)
  }
})

test('a reader reads a frame at an offset of its buffer, and refuses a frame above its size', () => {
  const ping = pingAck(Buffer.from('12345678'))
  const buf = Buffer.concat([Buffer.from('junk'), ping, Buffer.from('more')])
  const { reader, frames } = collector()
  reader.read(buf, 4, 4 + ping.length)
  assert.equal(frames.length, 1)
  assert.equal(Buffer.from(frames[0].payload, 'hex').toString(), '12345678')

  const small = collector(16)
  assert.equal(small.reader.read(frame(DATA, 0, 1, Buffer.alloc(17)), 0, FRAME_HEADER + 17), false)
  assert.match(small.errors[0], /17 bytes, above the 16/)
  // HTTP/1.1 read as a frame header: a length of 4.7 MB, refused before its payload comes.
  const http1 = collector()
  const text = Buffer.from('HTTP/1.1 400 Bad Request\r\n')
  assert.equal(http1.reader.read(text, 0, 9), false)
  assert.equal(http1.errors.length, 1)
  // Split across reads, the header is checked once it is whole.
  const split = collector()
  assert.equal(split.reader.read(text, 0, 5), true)
  assert.equal(split.reader.read(text, 5, 12), false)
  assert.equal(split.errors.length, 1)
})

test('a sink that says stop stops the reader', () => {
  const frames = Buffer.concat([frame(PING, 0, 0, Buffer.alloc(8)), frame(PING, 0, 0, Buffer.alloc(8))])
  let seen = 0
  const reader = new FrameReader({ onFrame: () => { seen++; return false }, onFrameError: () => {} })
  assert.equal(reader.read(frames, 0, frames.length), false)
  assert.equal(seen, 1)
})

test('a HEADERS template takes its stream id per request; a block above the frame size goes on in CONTINUATION frames', () => {
  const block = Buffer.from([0x82, 0x86, 0x84])
  const template = headersTemplate(block, true, 16_384)
  const out = Buffer.alloc(2 * template.length)
  assert.equal(writeHeaders(template, out, 0, 1), template.length)
  assert.equal(writeHeaders(template, out, template.length, 2 ** 31 - 1), out.length)
  const { reader, frames } = collector()
  reader.read(out, 0, out.length)
  assert.deepEqual(frames, [
    { type: HEADERS, flags: END_HEADERS | END_STREAM, streamId: 1, payload: '828684' },
    { type: HEADERS, flags: END_HEADERS | END_STREAM, streamId: 2 ** 31 - 1, payload: '828684' }
  ])

  const big = Buffer.alloc(40, 0x41)
  const split = headersTemplate(big, false, 16)
  const into = Buffer.alloc(split.length + 3)
  writeHeaders(split, into, 3, 7)
  const parts = collector()
  parts.reader.read(into, 3, into.length)
  assert.deepEqual(parts.frames.map((f) => [f.type, f.flags, f.streamId, f.payload.length / 2]), [
    [HEADERS, 0, 7, 16], [CONTINUATION, 0, 7, 16], [CONTINUATION, END_HEADERS, 7, 8]
  ])
})

test('DATA frames carry a slice of a body, END_STREAM on the last', () => {
  const body = Buffer.from('hello world')
  const out = Buffer.alloc(2 * FRAME_HEADER + body.length)
  let at = writeData(out, 0, 3, body, 0, 5, false)
  at = writeData(out, at, 3, body, 5, body.length, true)
  assert.equal(at, out.length)
  const { reader, frames } = collector()
  reader.read(out, 0, out.length)
  assert.deepEqual(frames.map((f) => [f.type, f.flags, f.streamId, Buffer.from(f.payload, 'hex').toString()]), [
    [DATA, 0, 3, 'hello'], [DATA, END_STREAM, 3, ' world']
  ])
})
