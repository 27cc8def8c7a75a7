import { performance } from 'node:perf_hooks'
import { classifyError, timedOut } from './connect-error.js'
import { ResponseParser } from './response-parser.js'
import { rawWriter } from './raw-write.js'
import { openSocket } from './socket.js'
import { buildDynamicRequest, encodeRequest, hookError } from './request.js'

const raw = rawWriter()
/**
 * One socket of the load: sends requests (up to `pipelining` in flight),
 * parses responses, and reconnects after the server closes or fails. It asks
 * its scheduler for work and reports what happened to its engine, through
 * their methods only. Every socket of an engine reads into one shared buffer
 * (socket.js), so reading costs no allocation.
 */

/** @typedef {import('node:net').Socket} Socket */
/** @typedef {import('./engine.js').LoadEngine} LoadEngine */
/** @typedef {import('./engine.js').ErrorKind} ErrorKind */
/** @typedef {import('./request.js').EncodedRequest} EncodedRequest */

/**
 * What every connection of one engine shares, fixed for the run.
 * @typedef {object} Wire
 * @property {import('./engine.js').Target} target
 * @property {EncodedRequest[]} requests
 * @property {number} pipelining
 * @property {Buffer | null} burst when every request is the same one: it, `pipelining` times, so that a batch is one slice and one write
 * @property {boolean} captureBody some request has an onResponse hook
 * @property {Buffer} readBuffer
 * @property {import('./response-parser.js').SavedHead} savedHead the HTTP/1.1 connections' last head read whole
 */

/**
 * Where a connection gets its requests: the closed or the open model.
 * @typedef {object} Scheduler
 * @property {(connection: import('./engine.js').LoadConnection, free: number, now: number) => void} dispatch
 *   a connection has `free` slots; the scheduler calls its `send` with what is due
 * @property {() => boolean} hasMore whether requests are still to be handed out
 */

/**
 * Opens a connection again after it closed or failed: at once, or, while the
 * target keeps failing, after a pause that doubles up to 250 ms, so that a
 * dead server does not spin a core.
 * @param {{ failures: number, reconnectTimer: NodeJS.Timeout | null, engine: LoadEngine, connect: () => void }} connection
 */
export function reconnect (connection) {
  const delay = connection.failures <= 1 ? 0 : Math.min(250, 2 ** connection.failures)
  if (delay === 0) {
    connection.connect()
    return
  }
  connection.reconnectTimer = setTimeout(() => {
    connection.reconnectTimer = null
    if (!connection.engine.isStopped()) connection.connect()
  }, delay)
}

/**
 * Cancels a reconnect that waits for its back-off: the connection is dropped.
 * @param {{ reconnectTimer: NodeJS.Timeout | null }} connection
 */
export function cancelReconnect (connection) {
  if (connection.reconnectTimer === null) return
  clearTimeout(connection.reconnectTimer)
  connection.reconnectTimer = null
}

export class Connection {
  /** @param {Wire} wire @param {Scheduler} scheduler @param {LoadEngine} engine */
  constructor (wire, scheduler, engine) {
    this.wire = wire
    this.scheduler = scheduler
    this.engine = engine
    /** @type {Socket | null} */
    this.socket = null
    this.parser = new ResponseParser(this, wire.captureBody, wire.savedHead)
    this.connected = false
    this.connectStartedAt = 0
    this.failures = 0
    /** @type {ErrorKind | null} */
    this.errorKind = null
    /** @type {NodeJS.ErrnoException | null} */
    this.lastError = null
    /** Set while parsing when the current response says the server will close. */
    this.closeAfterRead = false
    this.now = 0
    this.nextRequest = 0
    /** @type {Record<string, any>} */
    this.context = {}
    /** @type {NodeJS.Timeout | null} */
    this.reconnectTimer = null
    /** Open model: waiting for the next request to fall due, since `idleSince`. */
    this.idle = false
    this.idleSince = 0
    /** Slots of requests not written yet, oldest first: a setupRequest hook returned a promise. @type {number[]} */
    this.unwritten = []
    /** Something went through the socket's stream: every later write does too, to keep the order. */
    this.streamUsed = false

    // In-flight requests, oldest first, in a ring.
    let size = 1
    while (size < wire.pipelining) size <<= 1
    this.mask = size - 1
    this.sentAt = new Float64Array(size)
    this.intendedAt = new Float64Array(size)
    this.requestOf = new Int32Array(size)
    this.oldest = 0
    this.inflight = 0
  }

  connect () {
    const wire = this.wire
    const target = wire.target
    this.connected = false
    this.idle = false
    this.idleSince = 0
    this.errorKind = null
    this.lastError = null
    this.closeAfterRead = false
    this.streamUsed = false
    this.parser.reset()
    this.connectStartedAt = performance.now()
    const socket = openSocket(target, ['http/1.1'], wire.readBuffer, (n, buf) => this.onRead(n, buf))
    this.socket = socket
    socket.on(target.tls ? 'secureConnect' : 'connect', () => this.onConnect(socket))
    socket.on('error', (err) => {
      if (socket !== this.socket) return
      this.errorKind = classifyError(err)
      this.lastError = err
    })
    socket.on('close', () => this.onClose(socket))
  }

  // What the engine and the schedulers ask of a connection

  isConnected () {
    return this.connected
  }

  /** Requests sent (or being built) and not answered yet. */
  inFlight () {
    return this.inflight
  }

  /**
   * Every slot is taken and the oldest request has waited `patience` ms.
   * @param {number} now @param {number} patience
   */
  isStuck (now, patience) {
    return this.inflight >= this.wire.pipelining && now - this.sentAt[this.oldest] >= patience
  }

  /**
   * Open model: nothing is due for this connection. Returns false when it was already idle.
   * @param {number} now
   */
  markIdle (now) {
    if (this.idle) return false
    this.idle = true
    this.idleSince = now
    return true
  }

  /** Open model: a request fell due; an idle connection asks for it. @param {number} now */
  wake (now) {
    if (this.socket === null || !this.connected || !this.idle) return
    this.now = now
    this.pump()
  }

  /** @param {Socket} socket */
  onConnect (socket) {
    if (socket !== this.socket) return
    this.connected = true
    this.engine.connectionOpened()
    this.now = performance.now()
    this.pump()
  }

  /**
   * @param {number} nread @param {Buffer} buf
   * @returns {boolean} true: keep reading
   */
  onRead (nread, buf) {
    const engine = this.engine
    if (engine.isStopped()) return false
    this.now = performance.now()
    engine.recordBytes(nread)
    this.parser.execute(buf, 0, nread)
    if (this.closeAfterRead) {
      this.restart(this.errorKind ?? (this.inflight > 0 ? 'closed' : null))
    } else if (this.socket !== null && this.connected) {
      this.pump()
    }
    return true
  }

  /** Asks the scheduler for as many requests as there are free slots. */
  pump () {
    const free = this.wire.pipelining - this.inflight
    if (free <= 0 || this.closeAfterRead) return
    this.scheduler.dispatch(this, free, this.now)
  }

  /**
   * Sends `n` requests now. In the open model `intended` is when the first
   * was due, and `interval` the time between them.
   *
   * Latency counts from the intended time only when the request had to wait
   * for the server. When this connection sat idle since before the request
   * fell due, the delay is the generator's own timer and latency counts
   * from the send.
   * @param {number} n
   * @param {number} intended
   * @param {number} [interval]
   */
  send (n, intended, interval = 0) {
    const wire = this.wire
    const socket = /** @type {Socket} */ (this.socket)
    const requests = wire.requests
    const now = this.now
    const freeSince = this.idle ? this.idleSince : Infinity
    let slot = (this.oldest + this.inflight) & this.mask
    this.inflight += n
    this.idle = false
    if (wire.burst !== null) {
      const bytes = /** @type {Buffer} */ (requests[0].bytes)
      for (let i = 0; i < n; i++) {
        const due = intended + i * interval
        this.sentAt[slot] = now
        this.intendedAt[slot] = due >= freeSince ? now : due
        this.requestOf[slot] = 0
        slot = (slot + 1) & this.mask
      }
      this.write(socket, n === 1 ? bytes : wire.burst.subarray(0, n * bytes.length))
      return
    }
    /** @type {Promise<Buffer> | null} */
    let waiting = null
    if (n > 1) {
      this.streamUsed = true
      socket.cork()
    }
    for (let i = 0; i < n; i++) {
      const index = this.nextRequest
      this.nextRequest = index + 1 === requests.length ? 0 : index + 1
      const request = requests[index]
      const due = intended + i * interval
      this.sentAt[slot] = now
      this.intendedAt[slot] = due >= freeSince ? now : due
      this.requestOf[slot] = index
      // Requests leave in order: behind one still being built, the others wait too.
      const queued = this.unwritten.length > 0
      let bytes = queued ? null : request.bytes
      if (bytes === null && !queued) {
        const built = this.build(request)
        if (built === null) return
        if (built instanceof Promise) waiting = built
        else bytes = built
      }
      if (bytes !== null) this.write(socket, bytes)
      else this.unwritten.push(slot)
      slot = (slot + 1) & this.mask
    }
    if (n > 1) socket.uncork()
    if (waiting !== null) this.writeInOrder(socket, waiting)
  }

  /**
   * Writes past the socket's stream where Node allows it (see raw-write.js).
   * @param {Socket} socket @param {Buffer} data
   */
  write (socket, data) {
    if (!this.streamUsed && raw !== null && !this.wire.target.tls && raw.write(socket, data)) return
    this.streamUsed = true
    socket.write(data)
  }

  /**
   * A request built by its setupRequest hook: its bytes, a promise of them,
   * or null when the hook failed (the run then ends).
   * @param {EncodedRequest} request
   */
  build (request) {
    try {
      return buildDynamicRequest(request, this.context, (spec) => encodeRequest(spec, this.wire.target.host))
    } catch (err) {
      this.engine.hookFailed(/** @type {Error} */ (err))
      return null
    }
  }

  /**
   * Writes the unwritten requests one after the other, each once its hook
   * has resolved; their latency counts from then, as the hook's time is the
   * generator's, not the server's.
   * @param {Socket} socket @param {Promise<Buffer>} first the bytes of the oldest unwritten request
   */
  async writeInOrder (socket, first) {
    /** @type {Buffer | Promise<Buffer> | null} */
    let next = first
    while (next !== null) {
      let bytes
      try {
        bytes = await next
      } catch (err) {
        if (socket === this.socket) this.engine.hookFailed(/** @type {Error} */ (err))
        return
      }
      // The socket was dropped meanwhile: its requests were counted with it.
      if (socket !== this.socket || this.engine.isStopped()) return
      const slot = /** @type {number} */ (this.unwritten.shift())
      const now = performance.now()
      if (this.intendedAt[slot] === this.sentAt[slot]) this.intendedAt[slot] = now
      this.sentAt[slot] = now
      this.write(socket, bytes)
      if (this.unwritten.length === 0) return
      const request = this.wire.requests[this.requestOf[this.unwritten[0]]]
      next = request.bytes ?? this.build(request)
    }
  }

  // ResponseSink, called by the parser

  wantsDate () {
    return this.engine.clock.wanted
  }

  /**
   * The server's clock, from its Date header (whole seconds): between its
   * second and the next, it answered after we sent and before we read.
   * @param {string} date
   */
  onDate (date) {
    const server = Date.parse(date)
    if (!Number.isFinite(server) || this.inflight === 0) return
    const wall = Date.now()
    const sentWall = wall - (performance.now() - this.sentAt[this.oldest])
    this.engine.recordClock(server - wall, server + 1000 - sentWall)
  }

  expectsNoBody () {
    return this.wire.requests[this.requestOf[this.oldest]].head
  }

  /**
   * @param {number} status @param {number} bodyBytes @param {boolean} willClose @param {Buffer | null} body
   */
  onResponse (status, bodyBytes, willClose, body) {
    if (this.inflight === 0) {
      // A response nobody asked for.
      this.onParseError()
      return
    }
    const slot = this.oldest
    this.oldest = (slot + 1) & this.mask
    this.inflight--
    this.failures = 0
    this.engine.recordResponse(this.now - this.intendedAt[slot], status)
    if (body !== null) {
      const request = this.wire.requests[this.requestOf[slot]]
      try {
        request.spec.onResponse?.(status, body.toString(), this.context)
      } catch (err) {
        this.engine.hookFailed(hookError('onResponse', request, err))
      }
    }
    if (willClose) this.closeAfterRead = true
  }

  /**
   * The bytes are not HTTP. The connection restarts once the parser returns.
   */
  onParseError () {
    this.errorKind = 'invalid'
    this.closeAfterRead = true
  }

  /** @param {Socket} socket */
  onClose (socket) {
    if (socket !== this.socket || this.engine.isStopped()) return
    if (this.parser.finish()) {
      this.restart(this.inflight > 0 ? 'closed' : null)
      return
    }
    this.restart(this.errorKind ?? 'closed')
  }

  /**
   * Drops the socket and opens a new one. The requests still in flight fail as `kind`.
   * @param {ErrorKind | null} kind
   */
  restart (kind) {
    const engine = this.engine
    // A target that is not there at all ends the run with one clear line.
    if (!this.connected && kind !== null && engine.connectFailed(this.lastError ?? timedOut())) return
    if (!this.connected && kind !== null) engine.connectionRejected()
    // Requests in flight fail with the socket; a failed connect or a garbled
    // stream counts once even when no request was waiting.
    const failed = kind === null ? 0 : Math.max(this.inflight, this.connected && kind !== 'invalid' ? 0 : 1)
    const lost = this.inflight
    this.drop()
    this.inflight = 0
    this.oldest = 0
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
    this.unwritten.length = 0
    cancelReconnect(this)
    if (socket !== null) socket.destroy()
  }

  /**
   * Fails the oldest request when it has waited longer than the timeout.
   * @param {number} now @param {number} timeout ms
   */
  checkTimeout (now, timeout) {
    if (this.socket === null) return
    const waitingSince = this.connected
      ? (this.inflight > 0 ? this.sentAt[this.oldest] : Infinity)
      : this.connectStartedAt
    if (now - waitingSince > timeout) this.restart('timeout')
  }
}
