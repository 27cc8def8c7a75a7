import http2 from 'node:http2'
import net from 'node:net'
import tls from 'node:tls'
import { NO_HTTP2, classifyError, timedOut } from './connect-error.js'
import { netAddress, tlsOptions } from './connection.js'
import { buildDynamicRequest, hookError } from './request.js'

/**
 * One HTTP/2 connection of the load: a session whose streams carry up to
 * `streams` requests at a time. It answers its engine and scheduler as an
 * HTTP/1.1 Connection does (connection.js), but its requests finish in any
 * order, so each stream holds a slot of its own until it closes.
 *
 * Flow control is opened wide (the largest windows HTTP/2 allows), so that
 * it never paces the load; the server's own limit on concurrent streams caps
 * the slots a connection uses.
 */

/** @typedef {import('./engine.js').LoadEngine} LoadEngine */
/** @typedef {import('./engine.js').ErrorKind} ErrorKind */
/** @typedef {import('./connection.js').Wire} Wire */
/** @typedef {import('./connection.js').Scheduler} Scheduler */
/** @typedef {import('./request.js').RequestSpec} RequestSpec */

/** The largest flow-control window: 2³¹ − 1 bytes. */
const MAX_WINDOW = 2 ** 31 - 1
const { NGHTTP2_NO_ERROR, NGHTTP2_CANCEL } = http2.constants

/** Headers HTTP/2 forbids, which HTTP/1.1 requests carry (RFC 9113, 8.2.2). */
const CONNECTION_HEADERS = new Set(['host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te'])

/**
 * A request as a stream sends it: its header block and body.
 * @typedef {object} StreamRequest
 * @property {http2.OutgoingHttpHeaders} headers
 * @property {Buffer | null} body
 */

/**
 * @param {RequestSpec} spec complete (method, path, headers filled in)
 * @param {string} authority the URL's host, as HTTP/1.1's Host header would carry it; a host header overrides it
 * @returns {StreamRequest}
 */
export function streamRequest (spec, authority) {
  /** @type {http2.OutgoingHttpHeaders} */
  const headers = { ':method': spec.method ?? 'GET', ':path': spec.path ?? '/', ':authority': authority }
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    const lower = name.toLowerCase()
    if (lower === 'host') headers[':authority'] = value
    else if (!CONNECTION_HEADERS.has(lower) || (lower === 'te' && value === 'trailers')) headers[lower] = value
  }
  const body = spec.body === undefined || spec.body === null
    ? null
    : spec.body instanceof Uint8Array ? Buffer.from(spec.body.buffer, spec.body.byteOffset, spec.body.byteLength) : Buffer.from(String(spec.body))
  return { headers, body }
}

/**
 * One request in flight: the stream it rides and what it has seen. A slot
 * lives as long as its connection, with its listeners bound once, so that a
 * request allocates only its stream.
 */
class StreamSlot {
  /** @param {Http2Connection} connection @param {number} index */
  constructor (connection, index) {
    this.connection = connection
    this.index = index
    /** @type {http2.ClientHttp2Stream | null} */
    this.stream = null
    this.request = 0
    /** Counts the slot's uses: a request built late opens only if its slot was not given to another since. */
    this.use = 0
    this.sentAt = 0
    this.intendedAt = 0
    this.status = 0
    /** @type {Buffer[] | null} */
    this.chunks = null
    /** Set when dyno ended the stream itself: a timeout. @type {ErrorKind | null} */
    this.endedAs = null
    /** @type {NodeJS.ErrnoException | null} */
    this.error = null
    // A slot outlives its streams: a listener of a stream it no longer holds does nothing.
    const slot = this
    /** @this {http2.ClientHttp2Stream} @param {http2.IncomingHttpHeaders} headers */
    this.onResponse = function (headers) {
      if (this !== slot.stream) return
      slot.status = Number(headers[':status'])
      if (typeof headers.date === 'string' && connection.engine.clock.wanted) connection.onDate(headers.date, slot.sentAt)
    }
    /** @this {http2.ClientHttp2Stream} @param {Buffer} chunk */
    this.onData = function (chunk) { if (this === slot.stream) slot.chunks?.push(chunk) }
    /** @this {http2.ClientHttp2Stream} @param {NodeJS.ErrnoException} err */
    this.onError = function (err) { if (this === slot.stream) slot.error = err }
    /** @this {http2.ClientHttp2Stream} */
    this.onClose = function () { if (this === slot.stream) connection.onStreamClose(slot) }
  }
}

export class Http2Connection {
  /** @param {Wire} wire @param {Scheduler} scheduler @param {LoadEngine} engine */
  constructor (wire, scheduler, engine) {
    this.wire = wire
    this.scheduler = scheduler
    this.engine = engine
    /** @type {http2.ClientHttp2Session | null} */
    this.session = null
    /** @type {net.Socket | null} */
    this.socket = null
    this.connected = false
    this.connectStartedAt = 0
    this.failures = 0
    /** @type {NodeJS.ErrnoException | null} */
    this.lastError = null
    /** The socket under the session connected (and, with TLS, agreed on h2). */
    this.socketUp = false
    /** The server sent GOAWAY: no new streams on this session; streams above this id were not processed. */
    this.goneAwayAbove = Infinity
    this.bytesSeen = 0
    this.now = 0
    this.nextRequest = 0
    /** @type {Record<string, any>} */
    this.context = {}
    /** @type {NodeJS.Timeout | null} */
    this.reconnectTimer = null
    this.idle = false
    this.idleSince = 0
    /** Slots this session may use: --streams, or fewer when the server allows fewer. */
    this.limit = wire.pipelining
    /** @type {StreamSlot[]} */
    this.free = []
    /** @type {Set<StreamSlot>} */
    this.busy = new Set()
    for (let i = wire.pipelining - 1; i >= 0; i--) this.free.push(new StreamSlot(this, i))
    /** The requests as streams send them, made once; null for one built per send. */
    this.streamRequests = wire.requests.map((r) => r.bytes === null ? null : streamRequest(r.spec, wire.target.host))
  }

  connect () {
    const target = this.wire.target
    this.connected = false
    this.idle = false
    this.idleSince = 0
    this.lastError = null
    this.socketUp = false
    this.goneAwayAbove = Infinity
    this.bytesSeen = 0
    this.connectStartedAt = performance.now()
    const authority = `${target.tls ? 'https' : 'http'}://${target.host}`
    const options = {
      settings: { enablePush: false, initialWindowSize: MAX_WINDOW },
      // Node's own cap on streams waiting for the server's limit; ours is --streams.
      peerMaxConcurrentStreams: this.wire.pipelining
    }
    if (target.tls) {
      // Offering http/1.1 too lets a server without h2 answer the handshake, and say what it speaks.
      const socket = tls.connect(tlsOptions(target, ['h2', 'http/1.1']))
      this.socket = socket
      socket.on('error', (err) => { if (socket === this.socket && this.session === null) this.fail(socket, err) })
      socket.once('secureConnect', () => {
        if (socket !== this.socket) return
        if (socket.alpnProtocol !== 'h2') {
          this.fail(socket, Object.assign(new Error('no h2 in ALPN'), { code: NO_HTTP2, chosen: socket.alpnProtocol || 'no protocol' }))
          return
        }
        this.socketUp = true
        this.startSession(http2.connect(authority, { ...options, createConnection: () => socket }), socket)
      })
    } else {
      const socket = net.connect(netAddress(target))
      this.socket = socket
      socket.once('connect', () => { this.socketUp = true })
      this.startSession(http2.connect(authority, { ...options, createConnection: () => socket }), socket)
    }
  }

  /** @param {http2.ClientHttp2Session} session @param {net.Socket} socket */
  startSession (session, socket) {
    this.session = session
    socket.setNoDelay(true)
    session.on('error', (err) => { if (session === this.session) this.lastError = err })
    session.on('remoteSettings', (settings) => this.onSettings(session, settings))
    session.on('goaway', (code, lastStreamId) => {
      if (session !== this.session) return
      this.goneAwayAbove = Math.min(this.goneAwayAbove, lastStreamId)
      this.recycleWhenDone()
    })
    session.on('close', () => this.onSessionClose(session))
    session.on('frameError', () => {})
  }

  /**
   * A plain or TLS socket failed before any session ran on it: the
   * connect failed, or the server would not speak HTTP/2.
   * @param {net.Socket} socket @param {NodeJS.ErrnoException} err
   */
  fail (socket, err) {
    if (socket !== this.socket) return
    this.lastError = err
    this.restart(err.code === NO_HTTP2 ? 'invalid' : classifyError(err))
  }

  /** @param {http2.ClientHttp2Session} session @param {http2.Settings} settings */
  onSettings (session, settings) {
    if (session !== this.session) return
    // The server's cap on concurrent streams can come down during the session, never below one.
    const allowed = settings.maxConcurrentStreams ?? Infinity
    this.limit = Math.max(1, Math.min(this.wire.pipelining, allowed))
    if (allowed < this.wire.pipelining) this.engine.noteStreamLimit(allowed)
    if (this.connected) return
    this.connected = true
    session.setLocalWindowSize(MAX_WINDOW)
    this.engine.connectionOpened()
    this.now = performance.now()
    this.pump()
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
    if (this.session === null || !this.connected || !this.idle) return
    this.now = now
    this.pump()
  }

  pump () {
    const free = this.limit - this.busy.size
    if (free <= 0 || this.goneAwayAbove !== Infinity || this.session === null || this.session.closed) return
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
      slot.endedAs = null
      slot.error = null
      slot.chunks = this.wire.captureBody ? [] : null
      this.busy.add(slot)
      const ready = this.streamRequests[index]
      if (ready !== null) {
        this.open(slot, ready)
        continue
      }
      let built
      try {
        built = buildDynamicRequest(requests[index], this.context, (spec) => streamRequest(spec, this.wire.target.host))
      } catch (err) {
        this.engine.hookFailed(/** @type {Error} */ (err))
        return
      }
      if (!(built instanceof Promise)) {
        this.open(slot, built)
        continue
      }
      // Streams do not wait for each other: this one opens once its hook resolves, its latency counted from then.
      const session = this.session
      const use = slot.use
      built.then((request) => {
        if (session !== this.session || this.engine.isStopped() || slot.use !== use || !this.busy.has(slot)) return
        slot.sentAt = performance.now()
        if (slot.intendedAt === now) slot.intendedAt = slot.sentAt
        this.open(slot, request)
      }, (err) => { if (session === this.session) this.engine.hookFailed(/** @type {Error} */ (err)) })
    }
  }

  /** @param {StreamSlot} slot @param {StreamRequest} request */
  open (slot, request) {
    const session = /** @type {http2.ClientHttp2Session} */ (this.session)
    let stream
    try {
      stream = session.request(request.headers, { endStream: request.body === null })
    } catch (err) {
      // The session is closing (a GOAWAY, a failure): the request fails with it.
      slot.error = /** @type {NodeJS.ErrnoException} */ (err)
      this.settleSlot(slot, this.goneAwayAbove !== Infinity ? 'goaway' : 'closed')
      return
    }
    slot.stream = stream
    stream.on('response', slot.onResponse)
    stream.on('data', slot.onData)
    stream.on('error', slot.onError)
    stream.on('close', slot.onClose)
    if (request.body !== null) stream.end(request.body)
  }

  /** @param {string} date @param {number} sentAt */
  onDate (date, sentAt) {
    const server = Date.parse(date)
    if (!Number.isFinite(server)) return
    const wall = Date.now()
    const sentWall = wall - (performance.now() - sentAt)
    this.engine.recordClock(server - wall, server + 1000 - sentWall)
  }

  /** @param {StreamSlot} slot */
  onStreamClose (slot) {
    const stream = /** @type {http2.ClientHttp2Stream} */ (slot.stream)
    if (!this.busy.has(slot) || slot.stream === null) return
    const engine = this.engine
    if (engine.isStopped()) return
    this.now = performance.now()
    const socket = this.socket
    if (socket !== null) {
      engine.recordBytes(socket.bytesRead - this.bytesSeen)
      this.bytesSeen = socket.bytesRead
    }
    const answered = slot.endedAs === null && slot.status > 0 && stream.rstCode === NGHTTP2_NO_ERROR && slot.error === null
    if (!answered) {
      this.settleSlot(slot, slot.endedAs ?? this.failureOf(slot, stream))
      if (this.session !== null && !this.session.closed && !this.session.destroyed) this.pump()
      this.recycleWhenDone()
      return
    }
    this.release(slot)
    this.failures = 0
    engine.recordResponse(this.now - slot.intendedAt, slot.status)
    if (slot.chunks !== null) {
      const request = this.wire.requests[slot.request]
      try {
        request.spec.onResponse?.(slot.status, Buffer.concat(slot.chunks).toString(), this.context)
      } catch (err) {
        engine.hookFailed(hookError('onResponse', request, err))
      }
      slot.chunks = null
    }
    if (this.connected) this.pump()
    this.recycleWhenDone()
  }

  /**
   * Why a stream closed without an answer: the server's GOAWAY left it out,
   * the server reset it, or the connection failed under it.
   * @param {StreamSlot} slot @param {http2.ClientHttp2Stream} stream
   * @returns {ErrorKind}
   */
  failureOf (slot, stream) {
    const err = slot.error
    if (err?.code === 'ERR_HTTP2_GOAWAY_SESSION' || (stream.id !== undefined && stream.id > this.goneAwayAbove)) return 'goaway'
    if (err?.code === 'ERR_HTTP2_STREAM_ERROR') return 'stream'
    const session = this.session
    if (session === null || session.destroyed || session.closed) return this.lastError !== null ? classifyError(this.lastError) : 'closed'
    if (err !== null) return classifyError(err)
    if (stream.rstCode !== undefined && stream.rstCode !== NGHTTP2_NO_ERROR) return 'stream'
    // Ended cleanly without a response head.
    return 'invalid'
  }

  /**
   * After a GOAWAY, the streams the server took finish, and then the
   * connection opens a new session. It does not wait for the old one's
   * close: a server may hold its socket open long after.
   */
  recycleWhenDone () {
    const session = this.session
    if (this.goneAwayAbove === Infinity || this.busy.size > 0 || session === null) return
    queueMicrotask(() => { if (session === this.session && !this.engine.isStopped()) this.restart(null) })
  }

  /** A request in `slot` failed as `kind`. @param {StreamSlot} slot @param {ErrorKind} kind */
  settleSlot (slot, kind) {
    this.release(slot)
    this.engine.recordErrors(kind, 1)
    this.engine.settle(1)
  }

  /** @param {StreamSlot} slot */
  release (slot) {
    this.busy.delete(slot)
    slot.stream = null
    this.free.push(slot)
  }

  /** @param {http2.ClientHttp2Session} session */
  onSessionClose (session) {
    if (session !== this.session || this.engine.isStopped()) return
    const err = this.lastError
    // Connected in plain text, the server ended the session before its HTTP/2 settings: it speaks something else.
    if (!this.connected && this.socketUp && !this.wire.target.tls && err?.code !== NO_HTTP2) {
      const why = err === null ? 'it closed the connection without HTTP/2 settings' : err.message.split('\n')[0]
      this.lastError = Object.assign(new Error(why), { code: NO_HTTP2, why })
    }
    this.restart(this.busy.size > 0 || !this.connected ? (err !== null ? classifyError(err) : 'closed') : null)
  }

  /**
   * Drops the session and opens a new one. Streams still open fail as `kind`.
   * @param {ErrorKind | null} kind
   */
  restart (kind) {
    const engine = this.engine
    if (!this.connected && kind !== null && engine.connectFailed(this.lastError ?? timedOut())) return
    const lost = this.busy.size
    // Streams the GOAWAY left out count as such; the rest fail as the connection did.
    let goaway = 0
    for (const slot of this.busy) if (slot.stream?.id !== undefined && slot.stream.id > this.goneAwayAbove) goaway++
    const failed = kind === null ? 0 : Math.max(lost, this.connected ? 0 : 1)
    this.drop()
    if (goaway > 0) engine.recordErrors('goaway', goaway)
    if (failed - goaway > 0) engine.recordErrors(/** @type {ErrorKind} */ (kind), failed - goaway)
    if (failed > 0) this.failures++
    engine.settle(lost)
    if (engine.isStopped() || !this.scheduler.hasMore()) return
    const delay = this.failures <= 1 ? 0 : Math.min(250, 2 ** this.failures)
    if (delay === 0) this.connect()
    else this.reconnectTimer = setTimeout(() => { this.reconnectTimer = null; if (!engine.isStopped()) this.connect() }, delay)
  }

  drop () {
    const session = this.session
    const socket = this.socket
    this.session = null
    this.socket = null
    this.connected = false
    for (const slot of this.busy) {
      slot.stream = null
      this.free.push(slot)
    }
    this.busy.clear()
    if (this.reconnectTimer !== null) {
      clearTimeout(this.reconnectTimer)
      this.reconnectTimer = null
    }
    if (session !== null) session.destroy()
    if (socket !== null) socket.destroy()
  }

  /**
   * Ends the streams that waited longer than the timeout, each a timeout;
   * a connect that takes that long fails the connection.
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
      if (now - slot.sentAt <= timeout || slot.endedAs !== null) continue
      slot.endedAs = 'timeout'
      if (slot.stream !== null) {
        slot.stream.close(NGHTTP2_CANCEL)
        continue
      }
      // Still being built by its hook: it fails here, and its slot takes the next request.
      this.settleSlot(slot, 'timeout')
      freed = true
    }
    if (freed) {
      this.now = now
      this.pump()
    }
  }
}
