import net from 'node:net'
import tls from 'node:tls'
import { isTlsError } from './connect-error.js'
import { ResponseParser } from './response-parser.js'
import { buildDynamicRequest, hookError } from './request.js'

/**
 * One socket of the load: sends requests (up to `pipelining` in flight),
 * parses responses, and reconnects after the server closes or fails.
 * Every socket of an engine reads into the engine's one shared buffer
 * (`onread`), so reading costs no allocation.
 */

/** @typedef {import('./engine.js').LoadEngine} LoadEngine */
/** @typedef {import('./engine.js').ErrorKind} ErrorKind */

export class Connection {
  /** @param {LoadEngine} engine */
  constructor (engine) {
    this.engine = engine
    /** @type {net.Socket | null} */
    this.socket = null
    this.parser = new ResponseParser(this, engine.captureBody)
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

    // In-flight requests, oldest first, in a ring.
    let size = 1
    while (size < engine.pipelining) size <<= 1
    this.mask = size - 1
    this.sentAt = new Float64Array(size)
    this.intendedAt = new Float64Array(size)
    this.requestOf = new Int32Array(size)
    this.oldest = 0
    this.inflight = 0
  }

  connect () {
    const engine = this.engine
    const target = engine.target
    this.connected = false
    this.idle = false
    this.idleSince = 0
    this.errorKind = null
    this.lastError = null
    this.closeAfterRead = false
    this.parser.reset()
    this.connectStartedAt = performance.now()
    const onread = {
      buffer: engine.readBuffer,
      callback: (/** @type {number} */ n, /** @type {Uint8Array} */ buf) => this.onRead(n, /** @type {Buffer} */ (buf))
    }
    /** @type {net.Socket} */
    const socket = target.tls
      ? tls.connect({
        host: target.hostname,
        port: target.port,
        servername: target.servername,
        rejectUnauthorized: !target.insecure,
        ca: target.ca,
        ALPNProtocols: ['http/1.1'],
        // tls.connect hands onread to the socket, though its types omit it.
        ...(/** @type {object} */ ({ onread }))
      })
      : net.connect({ host: target.hostname, port: target.port, onread })
    socket.setNoDelay(true)
    this.socket = socket
    socket.on(target.tls ? 'secureConnect' : 'connect', () => this.onConnect(socket))
    socket.on('error', (err) => {
      if (socket !== this.socket) return
      this.errorKind = classifyError(err)
      this.lastError = err
    })
    socket.on('close', () => this.onClose(socket))
  }

  /** @param {net.Socket} socket */
  onConnect (socket) {
    if (socket !== this.socket) return
    this.connected = true
    this.engine.everConnected = true
    this.engine.refusingSince = 0
    this.now = performance.now()
    this.pump()
  }

  /**
   * @param {number} nread @param {Buffer} buf
   * @returns {boolean} true: keep reading
   */
  onRead (nread, buf) {
    const engine = this.engine
    if (engine.stopped) return false
    this.now = performance.now()
    engine.bytes += nread
    this.parser.execute(buf, 0, nread)
    if (this.closeAfterRead) {
      this.restart(this.errorKind ?? (this.inflight > 0 ? 'closed' : null))
    } else if (this.socket !== null && this.connected) {
      this.pump()
    }
    return true
  }

  /**
   * Sends what the engine allows, up to the pipelining depth. The closed
   * model refills a pipelined connection once its whole batch is answered,
   * as wrk does, so that one write carries the next batch: the write is a
   * large part of what a pipelined request costs.
   */
  pump () {
    const engine = this.engine
    const free = engine.pipelining - this.inflight
    if (free <= 0 || this.closeAfterRead) return
    if (engine.openModel) {
      engine.dispatch(this, free)
    } else if (this.inflight === 0) {
      const n = engine.claim(free)
      if (n > 0) this.send(n, this.now)
    }
  }

  /**
   * Sends `n` requests now. In the open model `intended` is when the first
   * was due; the engine passes the interval between them.
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
    const engine = this.engine
    const socket = /** @type {net.Socket} */ (this.socket)
    const requests = engine.requests
    const now = this.now
    const freeSince = this.idle ? this.idleSince : Infinity
    let slot = (this.oldest + this.inflight) & this.mask
    this.inflight += n
    this.idle = false
    if (engine.identicalRequests) {
      const bytes = /** @type {Buffer} */ (requests[0].bytes)
      for (let i = 0; i < n; i++) {
        const due = intended + i * interval
        this.sentAt[slot] = now
        this.intendedAt[slot] = due >= freeSince ? now : due
        this.requestOf[slot] = 0
        slot = (slot + 1) & this.mask
      }
      socket.write(n === 1 ? bytes : engine.burst.subarray(0, n * bytes.length))
      return
    }
    if (n > 1) socket.cork()
    for (let i = 0; i < n; i++) {
      const index = this.nextRequest
      this.nextRequest = index + 1 === requests.length ? 0 : index + 1
      const request = requests[index]
      const due = intended + i * interval
      this.sentAt[slot] = now
      this.intendedAt[slot] = due >= freeSince ? now : due
      this.requestOf[slot] = index
      slot = (slot + 1) & this.mask
      let bytes = request.bytes
      if (bytes === null) {
        try {
          bytes = buildDynamicRequest(request, this.context, engine.target.host)
        } catch (err) {
          engine.fail(/** @type {Error} */ (err))
          return
        }
      }
      socket.write(bytes)
    }
    if (n > 1) socket.uncork()
  }

  // ResponseSink, called by the parser

  expectsNoBody () {
    return this.engine.requests[this.requestOf[this.oldest]].head
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
    const engine = this.engine
    engine.recordResponse(this.now - this.intendedAt[slot], status)
    if (body !== null) {
      const request = engine.requests[this.requestOf[slot]]
      try {
        request.spec.onResponse?.(status, body.toString(), this.context)
      } catch (err) {
        engine.fail(hookError('onResponse', request, err))
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

  /** @param {net.Socket} socket */
  onClose (socket) {
    if (socket !== this.socket || this.engine.stopped) return
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
    if (!this.connected && !engine.everConnected && kind !== null) {
      // The target is not there at all: that ends the run with one clear line.
      engine.failToStart(this.lastError ?? Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' }))
      return
    }
    // Requests in flight fail with the socket; a failed connect or a garbled
    // stream counts once even when no request was waiting.
    const failed = kind === null ? 0 : Math.max(this.inflight, this.connected && kind !== 'invalid' ? 0 : 1)
    const lost = this.inflight
    this.drop()
    this.inflight = 0
    this.oldest = 0
    if (failed > 0) {
      engine.countErrors(/** @type {ErrorKind} */ (kind), failed)
      this.failures++
    }
    engine.settle(lost)
    if (engine.stopped || engine.sent >= engine.config.amount) return
    // Back off when the target keeps failing, so a dead server does not spin a core.
    const delay = this.failures <= 1 ? 0 : Math.min(250, 2 ** this.failures)
    if (delay === 0) this.connect()
    else this.reconnectTimer = setTimeout(() => { this.reconnectTimer = null; if (!engine.stopped) this.connect() }, delay)
  }

  /** Closes the socket without counting anything. */
  drop () {
    const socket = this.socket
    this.socket = null
    this.connected = false
    if (this.reconnectTimer !== null) {
      clearTimeout(this.reconnectTimer)
      this.reconnectTimer = null
    }
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

/**
 * @param {NodeJS.ErrnoException} err
 * @returns {ErrorKind}
 */
export function classifyError (err) {
  switch (err.code) {
    case 'ECONNREFUSED': return 'refused'
    case 'ECONNRESET':
    case 'EPIPE': return 'reset'
    case 'ETIMEDOUT': return 'timeout'
  }
  if (isTlsError(err.code)) return 'tls'
  return 'other'
}
