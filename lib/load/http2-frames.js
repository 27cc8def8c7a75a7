/**
 * HTTP/2 framing (RFC 9113, section 4 and 6), as a client of a load needs it:
 * the frames it sends, encoded into buffers, and a reader that cuts the
 * bytes a socket delivers into frames, whatever the boundaries of its reads.
 */

export const FRAME_HEADER = 9

/** Frame types (RFC 9113, 6). */
export const DATA = 0x0
export const HEADERS = 0x1
export const PRIORITY = 0x2
export const RST_STREAM = 0x3
export const SETTINGS = 0x4
export const PUSH_PROMISE = 0x5
export const PING = 0x6
export const GOAWAY = 0x7
export const WINDOW_UPDATE = 0x8
export const CONTINUATION = 0x9

/** Flags. */
export const END_STREAM = 0x1
export const ACK = 0x1
export const END_HEADERS = 0x4
export const PADDED = 0x8
export const PRIORITY_FLAG = 0x20

/** Settings (RFC 9113, 6.5.2). */
export const SETTINGS_HEADER_TABLE_SIZE = 0x1
export const SETTINGS_ENABLE_PUSH = 0x2
export const SETTINGS_MAX_CONCURRENT_STREAMS = 0x3
export const SETTINGS_INITIAL_WINDOW_SIZE = 0x4
export const SETTINGS_MAX_FRAME_SIZE = 0x5

/** Error codes (RFC 9113, 7). */
export const NO_ERROR = 0x0
export const PROTOCOL_ERROR = 0x1
export const FLOW_CONTROL_ERROR = 0x3
export const CANCEL = 0x8

/** The largest flow-control window: 2³¹ − 1 bytes. */
export const MAX_WINDOW = 2 ** 31 - 1
/** The window every stream and the connection start with. */
export const DEFAULT_WINDOW = 65_535
/** The frame size every endpoint must accept, and the largest dyno accepts. */
export const DEFAULT_MAX_FRAME_SIZE = 16_384
/** The largest stream id. */
export const MAX_STREAM_ID = 2 ** 31 - 1

const CLIENT_MAGIC = 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'

/**
 * Writes a frame header at `offset`.
 * @param {Buffer} buf @param {number} offset @param {number} length @param {number} type @param {number} flags @param {number} streamId
 */
export function writeFrameHeader (buf, offset, length, type, flags, streamId) {
  buf[offset] = length >>> 16
  buf[offset + 1] = (length >>> 8) & 0xff
  buf[offset + 2] = length & 0xff
  buf[offset + 3] = type
  buf[offset + 4] = flags
  buf.writeUInt32BE(streamId, offset + 5)
}

/**
 * A frame with its payload.
 * @param {number} type @param {number} flags @param {number} streamId @param {Uint8Array} [payload]
 */
export function frame (type, flags, streamId, payload) {
  const length = payload?.length ?? 0
  const buf = Buffer.allocUnsafe(FRAME_HEADER + length)
  writeFrameHeader(buf, 0, length, type, flags, streamId)
  if (payload !== undefined) buf.set(payload, FRAME_HEADER)
  return buf
}

/**
 * What a client sends first (RFC 9113, 3.4): the magic, its SETTINGS (no push,
 * the largest stream windows, no dynamic table for the server's header
 * blocks), and a WINDOW_UPDATE that opens the connection's window as wide.
 */
export function clientPreface () {
  const settings = Buffer.alloc(18)
  settings.writeUInt16BE(SETTINGS_ENABLE_PUSH, 0)
  settings.writeUInt32BE(0, 2)
  settings.writeUInt16BE(SETTINGS_INITIAL_WINDOW_SIZE, 6)
  settings.writeUInt32BE(MAX_WINDOW, 8)
  settings.writeUInt16BE(SETTINGS_HEADER_TABLE_SIZE, 12)
  settings.writeUInt32BE(0, 14)
  return Buffer.concat([
    Buffer.from(CLIENT_MAGIC, 'latin1'),
    frame(SETTINGS, 0, 0, settings),
    windowUpdate(0, MAX_WINDOW - DEFAULT_WINDOW)
  ])
}

export const SETTINGS_ACK = frame(SETTINGS, ACK, 0)

/** @param {Uint8Array} payload the PING's 8 bytes */
export function pingAck (payload) {
  return frame(PING, ACK, 0, payload)
}

/** @param {number} streamId 0 for the connection @param {number} increment */
export function windowUpdate (streamId, increment) {
  const payload = Buffer.allocUnsafe(4)
  payload.writeUInt32BE(increment, 0)
  return frame(WINDOW_UPDATE, 0, streamId, payload)
}

/** @param {number} streamId @param {number} code */
export function rstStream (streamId, code) {
  const payload = Buffer.allocUnsafe(4)
  payload.writeUInt32BE(code, 0)
  return frame(RST_STREAM, 0, streamId, payload)
}

/** @param {number} lastStreamId @param {number} code */
export function goaway (lastStreamId, code) {
  const payload = Buffer.allocUnsafe(8)
  payload.writeUInt32BE(lastStreamId, 0)
  payload.writeUInt32BE(code, 4)
  return frame(GOAWAY, 0, 0, payload)
}

/**
 * A request's HEADERS frame (and CONTINUATION frames, when its header block
 * is larger than the server's frame size), for stream 0: `setStreamId`
 * gives it its stream. Made once per request, copied into each write.
 * @param {Buffer} block the header block @param {boolean} endStream no body follows @param {number} maxFrameSize
 */
export function headersTemplate (block, endStream, maxFrameSize) {
  const frames = Math.max(1, Math.ceil(block.length / maxFrameSize))
  const buf = Buffer.alloc(block.length + frames * FRAME_HEADER)
  let at = 0
  for (let i = 0; i < frames; i++) {
    const part = block.subarray(i * maxFrameSize, (i + 1) * maxFrameSize)
    const flags = (i === frames - 1 ? END_HEADERS : 0) | (i === 0 && endStream ? END_STREAM : 0)
    writeFrameHeader(buf, at, part.length, i === 0 ? HEADERS : CONTINUATION, flags, 0)
    buf.set(part, at + FRAME_HEADER)
    at += FRAME_HEADER + part.length
  }
  return buf
}

/**
 * Copies a template of `headersTemplate` into `out` at `offset`, for stream `streamId`.
 * @param {Buffer} template @param {Buffer} out @param {number} offset @param {number} streamId
 * @returns {number} the offset after it
 */
export function writeHeaders (template, out, offset, streamId) {
  template.copy(out, offset)
  if (template.length - FRAME_HEADER === template.readUIntBE(0, 3)) {
    out.writeUInt32BE(streamId, offset + 5)
    return offset + template.length
  }
  // Split in CONTINUATION frames: each carries the stream id.
  let at = offset
  const end = offset + template.length
  while (at < end) {
    out.writeUInt32BE(streamId, at + 5)
    at += FRAME_HEADER + out.readUIntBE(at, 3)
  }
  return end
}

/**
 * Writes a DATA frame carrying `body[start..end)` at `offset` of `out`.
 * @param {Buffer} out @param {number} offset @param {number} streamId @param {Buffer} body @param {number} start @param {number} end @param {boolean} endStream
 * @returns {number} the offset after it
 */
export function writeData (out, offset, streamId, body, start, end, endStream) {
  writeFrameHeader(out, offset, end - start, DATA, endStream ? END_STREAM : 0, streamId)
  body.copy(out, offset + FRAME_HEADER, start, end)
  return offset + FRAME_HEADER + end - start
}

/**
 * Who hears the frames a FrameReader cuts out.
 * @typedef {object} FrameSink
 * @property {(type: number, flags: number, streamId: number, buf: Buffer, start: number, end: number) => boolean} onFrame
 *   a whole frame, its payload `buf[start..end)`, valid only during the call; false stops the reader
 * @property {(why: string) => void} onFrameError the bytes are not HTTP/2 frames; the reader stops
 */

/**
 * Cuts a stream of bytes into frames. A frame inside one read is handed on
 * where it lies; only one split across reads is copied, into a buffer the
 * reader keeps.
 */
export class FrameReader {
  /** @param {FrameSink} sink @param {number} [maxFrameSize] the largest payload accepted */
  constructor (sink, maxFrameSize = DEFAULT_MAX_FRAME_SIZE) {
    this.sink = sink
    this.maxFrameSize = maxFrameSize
    /** A frame begun in an earlier read. @type {Buffer | null} */
    this.partial = null
    this.have = 0
    /** The payload length of the partial frame, once its header is in; -1 before. */
    this.length = -1
  }

  reset () {
    this.have = 0
    this.length = -1
  }

  /**
   * @param {Buffer} buf @param {number} start @param {number} end
   * @returns {boolean} false when the reader stopped: a sink said so, or the bytes are not frames
   */
  read (buf, start, end) {
    let pos = start
    if (this.have > 0) {
      pos = this.finishPartial(buf, pos, end)
      if (pos < 0) return false
      if (this.have > 0) return true
    }
    const sink = this.sink
    const max = this.maxFrameSize
    while (end - pos >= FRAME_HEADER) {
      const length = (buf[pos] << 16) | (buf[pos + 1] << 8) | buf[pos + 2]
      if (length > max) return this.tooLarge(length)
      const payloadEnd = pos + FRAME_HEADER + length
      if (payloadEnd > end) break
      const streamId = ((buf[pos + 5] & 0x7f) * 0x1000000) + ((buf[pos + 6] << 16) | (buf[pos + 7] << 8) | buf[pos + 8])
      if (!sink.onFrame(buf[pos + 3], buf[pos + 4], streamId, buf, pos + FRAME_HEADER, payloadEnd)) return false
      pos = payloadEnd
    }
    if (pos < end) {
      if (this.partial === null) this.partial = Buffer.allocUnsafe(FRAME_HEADER + max)
      const n = end - pos
      buf.copy(this.partial, 0, pos, end)
      this.have = n
      this.length = -1
      if (n >= FRAME_HEADER) return this.checkPartialHeader()
    }
    return true
  }

  /**
   * Adds the start of `buf` to the partial frame, and hands it on once whole.
   * @param {Buffer} buf @param {number} pos @param {number} end
   * @returns {number} where the rest of `buf` starts, -1 when the reader stopped
   */
  finishPartial (buf, pos, end) {
    const partial = /** @type {Buffer} */ (this.partial)
    if (this.length < 0) {
      const n = Math.min(FRAME_HEADER - this.have, end - pos)
      buf.copy(partial, this.have, pos, pos + n)
      this.have += n
      pos += n
      if (this.have < FRAME_HEADER) return pos
      if (!this.checkPartialHeader()) return -1
    }
    const total = FRAME_HEADER + this.length
    const n = Math.min(total - this.have, end - pos)
    buf.copy(partial, this.have, pos, pos + n)
    this.have += n
    pos += n
    if (this.have < total) return pos
    this.have = 0
    this.length = -1
    const streamId = partial.readUInt32BE(5) & 0x7fffffff
    if (!this.sink.onFrame(partial[3], partial[4], streamId, partial, FRAME_HEADER, total)) return -1
    return pos
  }

  checkPartialHeader () {
    const partial = /** @type {Buffer} */ (this.partial)
    const length = partial.readUIntBE(0, 3)
    if (length > this.maxFrameSize) return this.tooLarge(length)
    this.length = length
    return true
  }

  /** @param {number} length */
  tooLarge (length) {
    this.reset()
    this.sink.onFrameError(`a frame of ${length} bytes, above the ${this.maxFrameSize} dyno allows`)
    return false
  }
}
