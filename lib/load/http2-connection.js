import { performance } from 'node:perf_hooks'
import { NO_HTTP2, classifyError, timedOut } from './connect-error.js'
import { cancelReconnect, reconnect } from './connection.js'
import { openSocket } from './socket.js'
import { ResponseHead, encodeHeaderBlock } from './hpack.js'
import {
  ACK, CANCEL, CONTINUATION, DATA, DEFAULT_MAX_FRAME_SIZE, DEFAULT_WINDOW, END_HEADERS, END_STREAM, FRAME_HEADER, FrameReader,
  GOAWAY, HEADERS, MAX_STREAM_ID, MAX_WINDOW, PADDED, PING, PRIORITY_FLAG, PUSH_PROMISE, RST_STREAM, SETTINGS, SETTINGS_ACK,
  SETTINGS_INITIAL_WINDOW_SIZE, SETTINGS_MAX_CONCURRENT_STREAMS, SETTINGS_MAX_FRAME_SIZE, WINDOW_UPDATE,
  clientPreface, headersTemplate, pingAck, rstStream, windowUpdate, writeData, writeHeaders
} from './http2-frames.js'
import { buildDynamicRequest, hookError } from './request.js'

/** @typedef {import('node:net').Socket} Socket */
/**
 * One HTTP/2 connection of the load: a socket whose streams carry up to
 * `streams` requests at a time. It answers its engine and scheduler as an
 * HTTP/1.1 Connection does (connection.js), but its requests finish in any
 * order, so each stream holds a slot of its own until it closes.
 *
 * It speaks HTTP/2 itself, over a plain or TLS socket, as Connection speaks
 * HTTP/1.1: each request's HEADERS frame is encoded once, before the run
 * (only its stream id changes), the requests a read makes room for leave in
 * one write, and the socket reads into the engine's shared buffer, frames
 * parsed where they lie (http2-frames.js, hpack.js).
 *
 * Flow control is opened wide on our side (the largest windows HTTP/2
 * allows), so that it never paces the load; request bodies keep to the
 * server's windows. The server's own limit on concurrent streams caps the
 * slots a connection uses.
 */

/** @typedef {import('./engine.js').LoadEngine} LoadEngine */
/** @typedef {import('./engine.js').ErrorKind} ErrorKind */
/** @typedef {import('./connection.js').Wire} Wire */
/** @typedef {import('./connection.js').Scheduler} Scheduler */
/** @typedef {import('./request.js').RequestSpec} RequestSpec */

/** Headers HTTP/2 forbids, which HTTP/1.1 requests carry (RFC 9113, 8.2.2). */
const CONNECTION_HEADERS = new Set(['host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te'])

/** The largest header block a response may spread over CONTINUATION frames. */
const MAX_HEADER_BLOCK = 1 << 20

const PREFACE = clientPreface()
const EMPTY = Buffer.alloc(0)

/**
 * A request as a stream sends it: its HEADERS frame (stream id left 0) and body.
 * @typedef {object} StreamRequest
 * @property {Buffer} headers
 * @property {Buffer | null} body
 */

/**
 * @param {RequestSpec} spec complete (method, path, headers filled in)
 * @param {string} authority the URL's host, as HTTP/1.1's Host header would carry it; a host header overrides it
 * @param {'http' | 'https'} [scheme]
 * @returns {StreamRequest}
 */
export function streamRequest (spec, authority, scheme = 'http') {
  const body = spec.body === undefined || spec.body === null
    ? null
    : spec.body instanceof Uint8Array ? Buffer.from(spec.body.buffer, spec.body.byteOffset, spec.body.byteLength) : Buffer.from(String(spec.body))
  /** @type {[string, string][]} */
  const headers = []
  let hasLength = false
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    const lower = name.toLowerCase()
    if (lower === 'host') authority = value
    else if (!CONNECTION_HEADERS.has(lower) || (lower === 'te' && value === 'trailers')) headers.push([lower, String(value)])
    if (lower === 'content-length') hasLength = true
  }
  if (body !== null && body.length > 0 && !hasLength) headers.push(['content-length', String(body.length)])
  const block = encodeHeaderBlock([
    [':method', spec.method ?? 'GET'], [':scheme', scheme], [':authority', authority], [':path', spec.path ?? '/'], ...headers
  ])
  // An empty body is no body: END_STREAM rides on the HEADERS frame.
  const sendsBody = body !== null && body.length > 0
  return { headers: headersTemplate(block, !sendsBody, DEFAULT_MAX_FRAME_SIZE), body: sendsBody ? body : null }
}

/** One request in flight: its stream and what it has seen. A slot lives as long as its connection. */
class StreamSlot {
  /** @param {number} index */
  constructor (index) {
    this.index = index
    /** The stream it rides, 0 before it opened (its setupRequest hook still running). */
    this.id = 0
    this.request = 0
    /** Counts the slot's uses: a request built late opens only if its slot was not given to another since. */
    this.use = 0
    this.sentAt = 0
    this.intendedAt = 0
    /** The final status, 0 before it came. */
    this.status = 0
    /** @type {Buffer[] | null} */
    this.chunks = null
    /** What is left to send of the request body, from `bodySent` on. @type {Buffer | null} */
    this.body = null
    this.bodySent = 0
    /** The server's flow-control window for this stream. */
    this.sendWindow = 0
    /** Waiting for the server's windows to open. */
    this.blocked = false
    /** Response bytes since our window for the stream was last replenished. */
    this.received = 0
  }
}

export class Http2Connection {
  /** The largest stream id a connection opens before it reconnects; tests lower it. */
  static maxStreamId = MAX_STREAM_ID
  /** Our receive windows get their bytes back once this many are used: far from empty, and rarely; tests lower it. */
  static replenishAt = 2 ** 30

  /** @param {Wire} wire @param {Scheduler} scheduler @param {LoadEngine} engine */
  constructor (wire, scheduler, engine) {
    this.wire = wire
    this.scheduler = scheduler
    this.engine = engine
    /** @type {Socket | null} */
    this.socket = null
    this.connected = false
    this.connectStartedAt = 0
    this.failures = 0
    /** @type {NodeJS.ErrnoException | null} */
    this.lastError = null
    /** The socket connected (and, with TLS, agreed on h2). */
    this.socketUp = false
    /** No new streams on this socket: the server sent GOAWAY, or stream ids ran out. */
    this.draining = false
    /** Responses on this socket: none before a GOAWAY means the server turned the connection away. */
    this.answered = 0
    /** The server sent GOAWAY: streams above this id were not processed. */
    this.goneAwayAbove = Infinity
    this.now = 0
    this.nextRequest = 0
    /** @type {Record<string, any>} */
    this.context = {}
    /** @type {NodeJS.Timeout | null} */
    this.reconnectTimer = null
    this.idle = false
    this.idleSince = 0
    /** Slots this connection may use: --streams, or fewer when the server allows fewer. */
    this.limit = wire.pipelining
    /** @type {StreamSlot[]} */
    this.free = []
    /** @type {Set<StreamSlot>} */
    this.busy = new Set()
    for (let i = wire.pipelining - 1; i >= 0; i--) this.free.push(new StreamSlot(i))
    /** Open streams by id. @type {Map<number, StreamSlot>} */
    this.streams = new Map()
    /** Busy slots whose stream is not open yet (each will take a stream id). */
    this.unopened = 0
    this.nextStreamId = 1
    // What the server allows us.
    this.peerMaxStreams = Infinity
    this.peerInitialWindow = DEFAULT_WINDOW
    this.peerMaxFrameSize = DEFAULT_MAX_FRAME_SIZE
    this.sendWindow = DEFAULT_WINDOW
    /** Slots with body bytes waiting for a window. @type {StreamSlot[]} */
    this.blocked = []
    /** Response DATA bytes since our connection window was last replenished. */
    this.received = 0
    /** Bytes waiting for the socket, `out[0..outLength)`: written once a read (or a send) is done. */
    this.out = EMPTY
    this.outLength = 0
    /** Inside onRead: writes wait for its end. */
    this.reading = false
    /** A header block spread over CONTINUATION frames: its stream (0 when none), END_STREAM, bytes. */
    this.continuing = 0
    this.continuingEnds = false
    this.block = EMPTY
    this.blockLength = 0
    /** The first bytes the server sent, kept until its SETTINGS came, to say what it speaks instead. @type {Buffer | null} */
    this.firstBytes = null
    this.reader = new FrameReader(this)
    this.head = new ResponseHead()
    const scheme = wire.target.tls ? 'https' : 'http'
    /** The requests as streams send them, made once; null for one built per send. */
    this.streamRequests = wire.requests.map((r) => r.bytes === null ? null : streamRequest(r.spec, wire.target.host, scheme))
  }

  connect () {
    const target = this.wire.target
    this.connected = false
    this.idle = false
    this.idleSince = 0
    this.lastError = null
    this.socketUp = false
    this.draining = false
    this.answered = 0
    this.goneAwayAbove = Infinity
    this.nextStreamId = 1
    this.peerMaxStreams = Infinity
    this.peerInitialWindow = DEFAULT_WINDOW
    this.peerMaxFrameSize = DEFAULT_MAX_FRAME_SIZE
    this.sendWindow = DEFAULT_WINDOW
    this.received = 0
    this.continuing = 0
    this.firstBytes = null
    this.reader.reset()
    this.connectStartedAt = performance.now()
    /** @type {Socket | null} */
    let self = null
    // Offering http/1.1 too lets a server without h2 answer the handshake, and say what it speaks.
    const socket = openSocket(target, ['h2', 'http/1.1'], this.wire.readBuffer, (n, buf) => this.onRead(/** @type {Socket} */ (self), n, buf))
    self = socket
    this.socket = socket
    socket.on(target.tls ? 'secureConnect' : 'connect', () => {
      if (socket !== this.socket) return
      if (target.tls && /** @type {import('node:tls').TLSSocket} */ (socket).alpnProtocol !== 'h2') {
        const chosen = /** @type {import('node:tls').TLSSocket} */ (socket).alpnProtocol || 'no protocol'
        this.lastError = Object.assign(new Error('no h2 in ALPN'), { code: NO_HTTP2, chosen })
        this.restart('invalid')
        return
      }
      this.socketUp = true
      socket.write(PREFACE)
    })
    socket.on('error', (err) => { if (socket === this.socket) this.lastError = err })
    socket.on('close', () => this.onClose(socket))
  }

  // What the engine and the schedulers ask of a connection

  isConnected () {
    return this.connected
  }

  inFlight () {
    return this.busy.size
  }

  /** @param {number} now @param {number} patience */
  isStuck (now, patience) {
    return this.busy.size >= this.limit && now - this.oldestSentAt() >= patience
  }

  oldestSentAt () {
    let oldest = Infinity
    for (const slot of this.busy) if (slot.sentAt < oldest) oldest = slot.sentAt
    return oldest
  }

  /** @param {number} now */
  markIdle (now) {
    if (this.idle) return false
    this.idle = true
    this.idleSince = now
    return true
  }

  /** @param {number} now */
  wake (now) {
    if (this.socket === null || !this.connected || !this.idle) return
    this.now = now
    this.pump()
  }

  pump () {
    if (this.draining || !this.connected) return
    let free = this.limit - this.busy.size
    // Stream ids left, less those the streams still being built will take.
    const ids = Math.floor((Http2Connection.maxStreamId - this.nextStreamId) / 2) + 1 - this.unopened
    if (ids < free) free = ids
    if (free <= 0) return
    this.scheduler.dispatch(this, free, this.now)
  }

  /**
   * Opens `n` streams now; `intended` and `interval` as for Connection.send.
   * @param {number} n @param {number} intended @param {number} [interval]
   */
  send (n, intended, interval = 0) {
    const requests = this.wire.requests
    const now = this.now
    const freeSince = this.idle ? this.idleSince : Infinity
    this.idle = false
    for (let i = 0; i < n; i++) {
      const index = this.nextRequest
      this.nextRequest = index + 1 === requests.length ? 0 : index + 1
      const due = intended + i * interval
      const slot = /** @type {StreamSlot} */ (this.free.pop())
      slot.use++
      slot.request = index
      slot.sentAt = now
      slot.intendedAt = due >= freeSince ? now : due
      slot.status = 0
      slot.received = 0
      slot.chunks = this.wire.captureBody ? [] : null
      this.busy.add(slot)
      this.unopened++
      const ready = this.streamRequests[index]
      if (ready !== null) {
        this.open(slot, ready)
        continue
      }
      let built
      try {
        built = buildDynamicRequest(requests[index], this.context, (spec) => streamRequest(spec, this.wire.target.host, this.wire.target.tls ? 'https' : 'http'))
      } catch (err) {
        this.engine.hookFailed(/** @type {Error} */ (err))
        return
      }
      if (!(built instanceof Promise)) {
        this.open(slot, built)
        continue
      }
      // Streams do not wait for each other: this one opens once its hook resolves, its latency counted from then.
      const socket = this.socket
      const use = slot.use
      built.then((request) => {
        if (socket !== this.socket || this.engine.isStopped() || slot.use !== use || !this.busy.has(slot)) return
        slot.sentAt = performance.now()
        if (slot.intendedAt === now) slot.intendedAt = slot.sentAt
        this.open(slot, request)
        this.flush()
        this.recycleWhenDone()
      }, (err) => { if (socket === this.socket) this.engine.hookFailed(/** @type {Error} */ (err)) })
    }
    if (!this.reading) this.flush()
  }

  /** @param {StreamSlot} slot @param {StreamRequest} request */
  open (slot, request) {
    if (this.draining) {
      // A GOAWAY came while its hook ran: the request fails with the connection.
      this.settleSlot(slot, this.goneAwayAbove !== Infinity ? 'goaway' : 'closed')
      return
    }
    this.unopened--
    const id = this.nextStreamId
    this.nextStreamId = id + 2
    if (this.nextStreamId > Http2Connection.maxStreamId) this.draining = true
    slot.id = id
    this.streams.set(id, slot)
    const template = request.headers
    const at = this.reserve(template.length)
    writeHeaders(template, this.out, at, id)
    if (request.body !== null) {
      slot.body = request.body
      slot.bodySent = 0
      slot.sendWindow = this.peerInitialWindow
      this.sendBody(slot)
    }
  }

  /**
   * Sends as much of the slot's body as the server's windows allow; the rest
   * waits for its WINDOW_UPDATE.
   * @param {StreamSlot} slot
   */
  sendBody (slot) {
    const body = /** @type {Buffer} */ (slot.body)
    let sent = slot.bodySent
    while (sent < body.length) {
      const n = Math.min(body.length - sent, this.peerMaxFrameSize, slot.sendWindow, this.sendWindow)
      if (n <= 0) {
        slot.bodySent = sent
        if (!slot.blocked) {
          slot.blocked = true
          this.blocked.push(slot)
        }
        return
      }
      const at = this.reserve(FRAME_HEADER + n)
      writeData(this.out, at, slot.id, body, sent, sent + n, sent + n === body.length)
      sent += n
      slot.sendWindow -= n
      this.sendWindow -= n
    }
    slot.body = null
  }

  /** The server's windows opened: bodies that waited go on. */
  sendBlocked () {
    const blocked = this.blocked
    if (blocked.length === 0) return
    this.blocked = []
    for (const slot of blocked) {
      slot.blocked = false
      if (slot.body !== null) this.sendBody(slot)
    }
  }

  /**
   * Makes room for `n` more bytes in the output.
   * @param {number} n @returns {number} where they go in `this.out`
   */
  reserve (n) {
    const at = this.outLength
    if (at + n > this.out.length) {
      const grown = Buffer.allocUnsafe(Math.max(1024, 2 * (at + n)))
      this.out.copy(grown, 0, 0, at)
      this.out = grown
    }
    this.outLength = at + n
    return at
  }

  /** @param {Buffer} frame */
  queue (frame) {
    const at = this.reserve(frame.length)
    frame.copy(this.out, at)
  }

  /** Writes what is waiting, in one write. */
  flush () {
    if (this.outLength === 0) return
    const bytes = this.out.subarray(0, this.outLength)
    this.out = EMPTY
    this.outLength = 0
    this.socket?.write(bytes)
  }

  /**
   * @param {Socket} socket @param {number} nread @param {Buffer} buf
   * @returns {boolean} true: keep reading
   */
  onRead (socket, nread, buf) {
    const engine = this.engine
    if (engine.isStopped() || socket !== this.socket) return false
    this.now = performance.now()
    engine.recordBytes(nread)
    if (!this.connected && this.firstBytes === null) this.firstBytes = Buffer.from(buf.subarray(0, Math.min(nread, 80)))
    this.reading = true
    this.reader.read(buf, 0, nread)
    this.reading = false
    if (socket !== this.socket) return true
    this.pump()
    this.flush()
    this.recycleWhenDone()
    return true
  }

  // FrameSink, called by the reader

  /**
   * @param {number} type @param {number} flags @param {number} streamId @param {Buffer} buf @param {number} start @param {number} end
   * @returns {boolean} false: the connection restarted, stop reading
   */
  onFrame (type, flags, streamId, buf, start, end) {
    if (!this.connected && (type !== SETTINGS || (flags & ACK) !== 0 || streamId !== 0)) {
      return this.notHttp2()
    }
    if (this.continuing !== 0 && (type !== CONTINUATION || streamId !== this.continuing)) {
      return this.protocolError('a header block interrupted by another frame')
    }
    switch (type) {
      case DATA: return this.onData(flags, streamId, buf, start, end)
      case HEADERS: return this.onHeaders(flags, streamId, buf, start, end)
      case CONTINUATION: return this.onContinuation(flags, streamId, buf, start, end)
      case RST_STREAM: return this.onReset(streamId, end - start)
      case SETTINGS: return this.onSettings(flags, buf, start, end)
      case PING:
        if (end - start !== 8) return this.protocolError('a PING frame not 8 bytes long')
        if ((flags & ACK) === 0) this.queue(pingAck(buf.subarray(start, end)))
        return true
      case GOAWAY:
        if (end - start < 8) return this.protocolError('a GOAWAY frame too short')
        return this.onGoaway(buf.readUInt32BE(start) & 0x7fffffff)
      case WINDOW_UPDATE:
        if (end - start !== 4) return this.protocolError('a WINDOW_UPDATE frame not 4 bytes long')
        return this.onWindowUpdate(streamId, buf.readUInt32BE(start) & 0x7fffffff)
      case PUSH_PROMISE: return this.protocolError('a PUSH_PROMISE, though dyno disabled push')
    }
    // PRIORITY, and frame types this client does not know, are ignored (RFC 9113, 4.1).
    return true
  }

  /** @param {string} why */
  onFrameError (why) {
    if (!this.connected) this.notHttp2()
    else this.protocolError(why)
  }

  /** @param {number} flags @param {number} streamId @param {Buffer} buf @param {number} start @param {number} end */
  onData (flags, streamId, buf, start, end) {
    if (streamId === 0) return this.protocolError('a DATA frame on stream 0')
    const length = end - start
    // Every DATA byte counts against our windows, those of streams dyno already closed too.
    this.received += length
    const replenishAt = Http2Connection.replenishAt
    if (this.received >= replenishAt) {
      this.queue(windowUpdate(0, this.received))
      this.received = 0
    }
    const slot = this.streams.get(streamId)
    if (slot === undefined) return true
    slot.received += length
    if (slot.received >= replenishAt) {
      this.queue(windowUpdate(streamId, slot.received))
      slot.received = 0
    }
    if (slot.status === 0) {
      this.failStream(slot, 'invalid')
      return true
    }
    if (slot.chunks !== null) {
      const padding = (flags & PADDED) !== 0 ? buf[start++] : 0
      if (end - padding > start) slot.chunks.push(Buffer.from(buf.subarray(start, end - padding)))
    }
    if ((flags & END_STREAM) !== 0) this.complete(slot)
    return true
  }

  /** @param {number} flags @param {number} streamId @param {Buffer} buf @param {number} start @param {number} end */
  onHeaders (flags, streamId, buf, start, end) {
    if (streamId === 0) return this.protocolError('a HEADERS frame on stream 0')
    let pos = start
    let blockEnd = end
    if ((flags & PADDED) !== 0) blockEnd -= buf[pos++]
    if ((flags & PRIORITY_FLAG) !== 0) pos += 5
    if (blockEnd < pos) return this.protocolError('a HEADERS frame shorter than its padding')
    const endStream = (flags & END_STREAM) !== 0
    if ((flags & END_HEADERS) !== 0) return this.onHeaderBlock(streamId, endStream, buf, pos, blockEnd)
    this.continuing = streamId
    this.continuingEnds = endStream
    this.blockLength = 0
    return this.appendBlock(buf, pos, blockEnd)
  }

  /** @param {number} flags @param {number} streamId @param {Buffer} buf @param {number} start @param {number} end */
  onContinuation (flags, streamId, buf, start, end) {
    if (this.continuing === 0) return this.protocolError('a CONTINUATION frame after no HEADERS')
    if (!this.appendBlock(buf, start, end)) return false
    if ((flags & END_HEADERS) === 0) return true
    this.continuing = 0
    return this.onHeaderBlock(streamId, this.continuingEnds, this.block, 0, this.blockLength)
  }

  /** @param {Buffer} buf @param {number} start @param {number} end */
  appendBlock (buf, start, end) {
    const length = this.blockLength + end - start
    if (length > MAX_HEADER_BLOCK) return this.protocolError('a header block above 1 MB')
    if (length > this.block.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * length, 4096))
      this.block.copy(grown, 0, 0, this.blockLength)
      this.block = grown
    }
    buf.copy(this.block, this.blockLength, start, end)
    this.blockLength = length
    return true
  }

  /**
   * A whole header block: a response's head (or an interim 1xx one, or trailers).
   * @param {number} streamId @param {boolean} endStream @param {Buffer} buf @param {number} start @param {number} end
   */
  onHeaderBlock (streamId, endStream, buf, start, end) {
    const slot = this.streams.get(streamId)
    const head = this.head
    // Every block is decoded, those of closed streams too: a malformed one ends the connection (RFC 9113, 4.3).
    if (!head.decode(buf, start, end, slot !== undefined && slot.status === 0 && this.engine.clock.wanted)) {
      return this.protocolError(`a header block with ${head.error}`)
    }
    if (slot === undefined) return true
    if (slot.status === 0) {
      const status = head.status
      if (status === 0) {
        this.failStream(slot, 'invalid')
        return true
      }
      if (status < 200) {
        // An interim response (100, 103): the final one follows.
        if (endStream) this.failStream(slot, 'invalid')
        return true
      }
      slot.status = status
      if (head.date !== null) this.onDate(head.date, slot.sentAt)
    }
    if (endStream) this.complete(slot)
    return true
  }

  /** @param {number} streamId @param {number} length */
  onReset (streamId, length) {
    if (length !== 4) return this.protocolError('a RST_STREAM frame not 4 bytes long')
    const slot = this.streams.get(streamId)
    if (slot === undefined) return true
    // Reset before its response ended, whatever the code.
    this.streams.delete(streamId)
    this.settleSlot(slot, 'stream')
    return true
  }

  /** @param {number} flags @param {Buffer} buf @param {number} start @param {number} end */
  onSettings (flags, buf, start, end) {
    if ((flags & ACK) !== 0) return true
    if ((end - start) % 6 !== 0) return this.protocolError('a SETTINGS frame whose length is not a multiple of 6')
    for (let at = start; at < end; at += 6) {
      const value = buf.readUInt32BE(at + 2)
      switch (buf.readUInt16BE(at)) {
        case SETTINGS_MAX_CONCURRENT_STREAMS:
          this.peerMaxStreams = value
          break
        case SETTINGS_INITIAL_WINDOW_SIZE: {
          if (value > MAX_WINDOW) return this.protocolError('an initial window above 2^31 - 1')
          const delta = value - this.peerInitialWindow
          this.peerInitialWindow = value
          for (const slot of this.streams.values()) slot.sendWindow += delta
          break
        }
        case SETTINGS_MAX_FRAME_SIZE:
          if (value < DEFAULT_MAX_FRAME_SIZE || value > 0xffffff) return this.protocolError(`a frame size of ${value}`)
          this.peerMaxFrameSize = value
          break
      }
    }
    this.queue(SETTINGS_ACK)
    // The server's cap on concurrent streams can come down during the connection, never below one.
    const allowed = this.peerMaxStreams
    this.limit = Math.max(1, Math.min(this.wire.pipelining, allowed))
    if (allowed < this.wire.pipelining) this.engine.noteStreamLimit(allowed)
    if (!this.connected) {
      this.connected = true
      this.firstBytes = null
      this.engine.connectionOpened()
    }
    this.sendBlocked()
    return true
  }

  /** @param {number} lastStreamId */
  onGoaway (lastStreamId) {
    this.draining = true
    if (lastStreamId < this.goneAwayAbove) this.goneAwayAbove = lastStreamId
    // The streams the server did not take fail now; the others may still finish.
    for (const [id, slot] of this.streams) {
      if (id <= lastStreamId) continue
      this.streams.delete(id)
      this.settleSlot(slot, 'goaway')
    }
    return true
  }

  /** @param {number} streamId @param {number} increment */
  onWindowUpdate (streamId, increment) {
    if (streamId === 0) {
      this.sendWindow += increment
      if (this.sendWindow > MAX_WINDOW) return this.protocolError('a connection window above 2^31 - 1')
    } else {
      const slot = this.streams.get(streamId)
      if (slot === undefined) return true
      slot.sendWindow += increment
    }
    this.sendBlocked()
    return true
  }

  /** The server answered the preface with something else than HTTP/2 SETTINGS. */
  notHttp2 () {
    if (this.wire.target.tls) return this.protocolError('a first frame other than SETTINGS')
    const bytes = this.firstBytes ?? EMPTY
    const line = /^HTTP\/\d(?:\.\d)? [^\r\n]*/.exec(bytes.toString('latin1'))
    const why = line !== null ? `it answered in HTTP/1 ("${line[0]}")` : 'its first bytes were not an HTTP/2 SETTINGS frame'
    this.lastError = Object.assign(new Error(why), { code: NO_HTTP2, why })
    this.restart('invalid')
    return false
  }

  /**
   * The server broke the protocol: the connection starts over.
   * @param {string} why
   */
  protocolError (why) {
    this.lastError = Object.assign(new Error(`the server sent ${why}`), { code: 'ERR_HTTP2_PROTOCOL_ERROR' })
    this.restart('invalid')
    return false
  }

  /** @param {string} date @param {number} sentAt */
  onDate (date, sentAt) {
    const server = Date.parse(date)
    if (!Number.isFinite(server)) return
    const wall = Date.now()
    const sentWall = wall - (performance.now() - sentAt)
    this.engine.recordClock(server - wall, server + 1000 - sentWall)
  }

  /**
   * The stream's response ended: it counts, and its slot takes the next request.
   * @param {StreamSlot} slot
   */
  complete (slot) {
    const engine = this.engine
    this.streams.delete(slot.id)
    // Answered before it had all of its body: the rest is not wanted.
    if (slot.body !== null) this.queue(rstStream(slot.id, CANCEL))
    const chunks = slot.chunks
    this.release(slot)
    if (engine.isStopped()) return
    this.failures = 0
    this.answered++
    engine.recordResponse(this.now - slot.intendedAt, slot.status)
    if (chunks !== null) {
      const request = this.wire.requests[slot.request]
      try {
        request.spec.onResponse?.(slot.status, Buffer.concat(chunks).toString(), this.context)
      } catch (err) {
        engine.hookFailed(hookError('onResponse', request, err))
      }
    }
  }

  /**
   * The stream went wrong on its own: dyno resets it, and the others go on.
   * @param {StreamSlot} slot @param {ErrorKind} kind
   */
  failStream (slot, kind) {
    this.queue(rstStream(slot.id, CANCEL))
    this.streams.delete(slot.id)
    this.settleSlot(slot, kind)
  }

  /**
   * After a GOAWAY (or with stream ids run out), the streams the server took
   * finish, and then the connection opens a new socket. It does not wait
   * for the old one's close: a server may hold it open long after.
   */
  recycleWhenDone () {
    const socket = this.socket
    if (!this.draining || this.busy.size > 0 || socket === null) return
    queueMicrotask(() => {
      if (socket !== this.socket || this.engine.isStopped()) return
      this.noteTurnedAway()
      this.restart(null)
    })
  }

  /**
   * A GOAWAY before a single answer is a server turning connections away: it
   * counts once, and the connection backs off as after a refused connect, so
   * that no storm of reconnects follows.
   */
  noteTurnedAway () {
    if (!this.draining || this.answered > 0) return
    this.engine.recordErrors('goaway', 1)
    this.engine.connectionRejected()
    this.failures++
  }

  /** A request in `slot` failed as `kind`. @param {StreamSlot} slot @param {ErrorKind} kind */
  settleSlot (slot, kind) {
    this.release(slot)
    this.engine.recordErrors(kind, 1)
    this.engine.settle(1)
  }

  /** @param {StreamSlot} slot */
  release (slot) {
    if (slot.id === 0) this.unopened--
    if (slot.blocked) {
      slot.blocked = false
      this.blocked.splice(this.blocked.indexOf(slot), 1)
    }
    slot.id = 0
    slot.body = null
    slot.chunks = null
    this.busy.delete(slot)
    this.free.push(slot)
  }

  /** @param {Socket} socket */
  onClose (socket) {
    if (socket !== this.socket || this.engine.isStopped()) return
    const err = this.lastError
    // Connected in plain text, the server closed before its HTTP/2 settings: it speaks something else.
    if (!this.connected && this.socketUp && !this.wire.target.tls && err?.code !== NO_HTTP2) {
      const why = err === null ? 'it closed the connection without HTTP/2 settings' : err.message.split('\n')[0]
      this.lastError = Object.assign(new Error(why), { code: NO_HTTP2, why })
    }
    if (this.busy.size === 0) this.noteTurnedAway()
    this.restart(this.busy.size > 0 || !this.connected ? (err !== null ? classifyError(err) : 'closed') : null)
  }

  /**
   * Drops the socket and opens a new one. Streams still open fail as `kind`.
   * @param {ErrorKind | null} kind
   */
  restart (kind) {
    const engine = this.engine
    if (!this.connected && kind !== null && engine.connectFailed(this.lastError ?? timedOut())) return
    if (!this.connected && kind !== null) engine.connectionRejected()
    const lost = this.busy.size
    const failed = kind === null ? 0 : Math.max(lost, this.connected ? 0 : 1)
    this.drop()
    if (failed > 0) {
      engine.recordErrors(/** @type {ErrorKind} */ (kind), failed)
      this.failures++
    }
    engine.settle(lost)
    if (engine.isStopped() || !this.scheduler.hasMore()) return
    reconnect(this)
  }

  /** Closes the socket without counting anything. */
  drop () {
    const socket = this.socket
    this.socket = null
    this.connected = false
    for (const slot of this.busy) {
      slot.id = 0
      slot.body = null
      slot.blocked = false
      slot.chunks = null
      this.free.push(slot)
    }
    this.busy.clear()
    this.streams.clear()
    this.blocked = []
    this.unopened = 0
    this.out = EMPTY
    this.outLength = 0
    this.continuing = 0
    cancelReconnect(this)
    if (socket !== null) socket.destroy()
  }

  /**
   * Ends the streams that waited longer than the timeout, each a timeout
   * (RST_STREAM CANCEL tells the server); a connect that takes that long
   * fails the connection.
   * @param {number} now @param {number} timeout ms
   */
  checkTimeout (now, timeout) {
    if (this.socket === null) return
    if (!this.connected) {
      if (now - this.connectStartedAt > timeout) this.restart('timeout')
      return
    }
    let freed = false
    for (const slot of this.busy) {
      if (now - slot.sentAt <= timeout) continue
      // A slot still being built by its hook fails here too, and takes the next request.
      if (slot.id !== 0) this.failStream(slot, 'timeout')
      else this.settleSlot(slot, 'timeout')
      freed = true
    }
    if (!freed) return
    this.now = now
    this.pump()
    this.flush()
    this.recycleWhenDone()
  }
}
