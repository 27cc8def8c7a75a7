import { performance } from 'node:perf_hooks'
import { ClosedModel } from './closed-model.js'
import { explainConnectError } from './connect-error.js'
import { Connection } from './connection.js'
import { LatencyRecorder } from './histogram.js'
import { OpenModel } from './open-model.js'
import { SavedHead } from './response-parser.js'
import { setDeadline } from './timers.js'

/**
 * Runs one load in this thread: a set of connections, a scheduler that hands
 * them requests (the closed or the open model), a clock, and the counters the
 * connections report to.
 */

/** Connections opened at once; a stop (Ctrl-C) is heard between batches. */
const OPEN_BATCH = 256

/**
 * What a failed request counts as. HTTP/2 adds two: `goaway`, a stream the
 * server's GOAWAY left unprocessed, and `stream`, one it reset (RST_STREAM).
 * @typedef {'timeout' | 'reset' | 'refused' | 'closed' | 'invalid' | 'tls' | 'goaway' | 'stream' | 'other'} ErrorKind
 */

/** @typedef {Connection | import('./http2-connection.js').Http2Connection} LoadConnection */

/**
 * HTTP/2's connection, loaded by the first run that speaks it: a plain run's
 * start does without its modules (~1,500 lines, about 5 ms of CPU).
 * @type {typeof import('./http2-connection.js').Http2Connection | null}
 */
let Http2Connection = null

/**
 * Loads what an engine for `target` needs; call it before making one.
 * @param {Target} target
 */
export async function prepareEngine (target) {
  if (target.http2) Http2Connection ??= (await import('./http2-connection.js')).Http2Connection
}

/** @param {Target} target */
function connectionClass (target) {
  if (!target.http2) return Connection
  if (Http2Connection === null) throw new Error('an HTTP/2 engine made before prepareEngine()')
  return Http2Connection
}

/**
 * @typedef {object} Target
 * @property {boolean} tls
 * @property {string} hostname as in the URL, without brackets
 * @property {string} [address] the address to connect to, when known before the run (localhost)
 * @property {number} port
 * @property {string} [socketPath] a unix socket to connect to instead of the address and port
 * @property {boolean} [http2] speak HTTP/2 (h2 by ALPN with TLS, h2c with prior knowledge without)
 * @property {string} host value of the Host header (HTTP/2's :authority)
 * @property {string} [servername]
 * @property {boolean} insecure
 * @property {string | Buffer} [ca]
 */

/**
 * @typedef {object} EngineConfig
 * @property {Target} target
 * @property {import('./request.js').EncodedRequest[]} requests
 * @property {number} connections
 * @property {number} pipelining requests in flight on a connection: pipelined (HTTP/1.1) or as streams (HTTP/2)
 * @property {number} durationMs Infinity for no limit
 * @property {number} amount Infinity for no limit; the run ends once that many are answered or failed
 * @property {number} timeoutMs
 * @property {number} rate this engine's requests per second; 0 for the closed model
 * @property {number} [phaseMs] open model: when this engine's first request is due, after the start
 * @property {number} [due] open model: requests that fall due in the run (rate × duration, at most amount)
 * @property {number} maxConnections
 * @property {(tick: EngineTick) => void} [onTick] called once a second
 */

/**
 * @typedef {object} EngineTick
 * @property {number} elapsedMs
 * @property {number} responses in total so far
 * @property {number} errors in total so far
 * @property {number} lastSecondResponses
 * @property {import('./histogram.js').IntervalLatency | null} lastSecondLatency
 */

/**
 * The mistake that ended a run early (a request hook threw or returned a bad
 * request); what was measured until then is kept.
 * @typedef {object} RunFailure
 * @property {string} code
 * @property {string} message
 * @property {1 | 2 | 3 | 70} exitCode
 */

/**
 * What one engine measured, in a form that adds up across engines (workers).
 * @typedef {object} RawResult
 * @property {number} startedAt epoch ms
 * @property {number} durationMs
 * @property {number} sent
 * @property {number} responses
 * @property {number} pending requests sent and still waiting for an answer when the run ended
 * @property {number} bytes
 * @property {number} dropped requests that were due but never sent (open model)
 * @property {number} peakConnections
 * @property {number | null} [streamLimit] HTTP/2: the fewest concurrent streams the server allowed a connection, when below --streams
 * @property {{ low: number, high: number } | null} [serverClock] bounds of how far the server's clock is ahead of this one, ms (from its Date headers)
 * @property {Record<string, number>} statusCodes
 * @property {Record<ErrorKind, number>} errors
 * @property {LatencyRecorder} latency
 * @property {{ responses: number[], bytes: number[] }} perSecond
 * @property {boolean} targetRefusing the target was refusing connections when the run ended
 * @property {RunFailure | null} failure
 */

export class LoadEngine {
  /** @param {EngineConfig} config */
  constructor (config) {
    this.config = config
    const identical = config.requests.length === 1 && config.requests[0].bytes !== null && !config.target.http2
    /** @type {import('./connection.js').Wire} */
    this.wire = {
      target: config.target,
      requests: config.requests,
      pipelining: config.pipelining,
      burst: identical
        ? Buffer.concat(Array(config.pipelining).fill(config.requests[0].bytes))
        : null,
      captureBody: config.requests.some((r) => typeof r.spec.onResponse === 'function'),
      readBuffer: Buffer.allocUnsafe(64 * 1024),
      savedHead: new SavedHead()
    }
    this.scheduler = config.rate > 0
      ? new OpenModel({ rate: config.rate, phaseMs: config.phaseMs ?? 0, amount: config.due ?? config.amount, maxConnections: config.maxConnections }, this)
      // A pipelined HTTP/1.1 connection is refilled a batch at a time; HTTP/2 streams, one at a time.
      : new ClosedModel(config.amount, config.target.http2 ? 1 : config.pipelining)
    this.Connection = connectionClass(config.target)

    this.stopped = false
    this.everConnected = false
    this.startTime = 0
    this.startedAt = 0
    this.settled = 0
    this.responses = 0
    this.bytes = 0
    this.errorCount = 0
    /** When connections started being refused, with none accepted since; 0 while the target accepts. */
    this.refusingSince = 0
    this.statusCounts = new Float64Array(600)
    /** @type {Record<ErrorKind, number>} */
    this.errors = { timeout: 0, reset: 0, refused: 0, closed: 0, invalid: 0, tls: 0, goaway: 0, stream: 0, other: 0 }
    this.latency = new LatencyRecorder()
    /** @type {{ responses: number[], bytes: number[] }} */
    this.perSecond = { responses: [], bytes: [] }
    this.lastTick = { responses: 0, bytes: 0, at: 0 }
    /**
     * How far the server's clock is ahead of ours, in ms, bounded from its
     * Date headers (one a second): `low` <= offset <= `high`.
     */
    this.clock = { wanted: true, low: -Infinity, high: Infinity }
    /** @type {RunFailure | null} */
    this.failure = null

    /** @type {LoadConnection[]} */
    this.connections = []
    this.peakConnections = 0
    /** @type {number | null} */
    this.streamLimit = null

    /** @type {NodeJS.Timeout[]} */
    this.timers = []
    /** @type {{ cancel: () => void } | null} */
    this.deadline = null
    /** @type {(result: RawResult) => void} */
    this.resolve = () => {}
    /** @type {(error: Error) => void} */
    this.reject = () => {}
  }

  /** @returns {Promise<RawResult>} */
  run () {
    const config = this.config
    return new Promise((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
      this.startTime = performance.now()
      this.lastTick.at = this.startTime
      this.startedAt = Date.now()
      if (config.amount <= 0) {
        queueMicrotask(() => this.stop())
        return
      }
      if (Number.isFinite(config.durationMs)) this.deadline = setDeadline(() => this.stop(), this.startTime + config.durationMs)
      this.timers.push(setInterval(() => this.tick(), 1000))
      const sweep = Math.max(5, Math.min(250, config.timeoutMs / 4))
      this.timers.push(setInterval(() => this.checkTimeouts(), sweep))
      this.openConnections(config.connections)
      this.scheduler.start(this.startTime)
    })
  }

  /**
   * Opens `count` connections, a batch at a time: thousands of them take a
   * while, and the run must stay stoppable meanwhile.
   * @param {number} count
   */
  openConnections (count) {
    const n = Math.min(count, OPEN_BATCH)
    for (let i = 0; i < n && !this.stopped; i++) this.openConnection()
    if (count > n) setImmediate(() => { if (!this.stopped) this.openConnections(count - n) })
  }

  openConnection () {
    const connection = new this.Connection(this.wire, this.scheduler, this)
    this.connections.push(connection)
    if (this.connections.length > this.peakConnections) this.peakConnections = this.connections.length
    connection.connect()
  }

  // What connections report

  isStopped () {
    return this.stopped
  }

  /** A connection was accepted: the target is there. */
  connectionOpened () {
    this.everConnected = true
  }

  /** HTTP/2: the server allows a connection `n` concurrent streams, fewer than asked. @param {number} n */
  noteStreamLimit (n) {
    if (this.streamLimit === null || n < this.streamLimit) this.streamLimit = n
  }

  /** @param {number} n */
  recordBytes (n) {
    this.bytes += n
  }

  /** @param {number} low @param {number} high bounds of the server's clock offset, ms */
  recordClock (low, high) {
    const clock = this.clock
    clock.wanted = false
    if (low > clock.low) clock.low = low
    if (high < clock.high) clock.high = high
  }

  /**
   * A connection failed before the target took a request on it: refused,
   * its socket gone, a GOAWAY before any answer. A target that does so for a
   * whole timeout, with no answer since, is gone (see checkTimeouts).
   */
  connectionRejected () {
    if (this.refusingSince === 0) this.refusingSince = performance.now()
  }

  /** @param {number} ms @param {number} status */
  recordResponse (ms, status) {
    if (this.stopped) return
    // An answer: the target is there, whatever its connections did before.
    this.refusingSince = 0
    this.latency.record(ms * 1000)
    this.statusCounts[status]++
    this.responses++
    this.settle(1)
  }

  /** @param {ErrorKind} kind @param {number} n */
  recordErrors (kind, n) {
    if (this.stopped) return
    this.errors[kind] += n
    this.errorCount += n
    if (kind === 'refused') this.connectionRejected()
  }

  /**
   * `n` requests ended (answered or failed). With `amount`, the last one ends the run.
   * @param {number} n
   */
  settle (n) {
    this.settled += n
    if (this.settled >= this.config.amount && !this.stopped) {
      // Let the caller finish its bookkeeping first.
      queueMicrotask(() => this.stop())
    }
  }

  /**
   * A connection could not connect. Before any connection ever succeeded,
   * the target is down, unresolvable or untrusted: that rejects the run,
   * and the connection must not retry.
   * @param {NodeJS.ErrnoException} err
   * @returns {boolean} whether the run ended
   */
  connectFailed (err) {
    if (this.everConnected) return false
    if (!this.stopped) {
      this.halt()
      explainConnectError(err, this.config.target).then(this.reject, this.reject)
    }
    return true
  }

  /**
   * A request hook of the user's threw, or built a request that cannot be
   * sent: the run ends with that message, keeping what was measured.
   * @param {Error} err a DynoError
   */
  hookFailed (err) {
    if (this.stopped) return
    const e = /** @type {import('../errors.js').DynoError} */ (err)
    this.failure = { code: e.code ?? 'DYNO_REQUEST_HOOK', message: e.message, exitCode: e.exitCode ?? 2 }
    this.stop()
  }

  checkTimeouts () {
    const now = performance.now()
    // A target that has refused every connection for a whole timeout is gone:
    // end the run rather than knock on its door until the duration (or, with
    // -a alone, forever).
    if (this.refusingSince > 0 && now - this.refusingSince > this.config.timeoutMs) {
      this.stop()
      return
    }
    const timeout = this.config.timeoutMs
    for (const connection of this.connections) connection.checkTimeout(now, timeout)
  }

  tick () {
    const now = performance.now()
    const responses = this.responses - this.lastTick.responses
    const bytes = this.bytes - this.lastTick.bytes
    this.perSecond.responses.push(responses)
    this.perSecond.bytes.push(bytes)
    this.lastTick = { responses: this.responses, bytes: this.bytes, at: now }
    this.clock.wanted = true
    this.config.onTick?.({
      elapsedMs: now - this.startTime,
      responses: this.responses,
      errors: this.errorCount,
      lastSecondResponses: responses,
      lastSecondLatency: this.latency.takeInterval()
    })
  }

  halt () {
    this.stopped = true
    this.scheduler.stop()
    this.deadline?.cancel()
    for (const timer of this.timers) clearTimeout(timer)
    for (const connection of this.connections) connection.drop()
  }

  stop () {
    if (this.stopped) return
    const durationMs = performance.now() - this.startTime
    let pending = 0
    for (const connection of this.connections) pending += connection.inFlight()
    this.halt()
    // The last second ends with the run when the timers race; a run shorter
    // than a second still gets one (scaled) sample.
    if (performance.now() - this.lastTick.at >= 900) {
      this.tick()
    } else if (this.perSecond.responses.length === 0 && durationMs > 0) {
      this.perSecond.responses.push(Math.round(this.responses * 1000 / durationMs))
      this.perSecond.bytes.push(Math.round(this.bytes * 1000 / durationMs))
    }
    /** @type {Record<string, number>} */
    const statusCodes = {}
    this.statusCounts.forEach((n, code) => { if (n > 0) statusCodes[code] = n })
    this.resolve({
      startedAt: this.startedAt,
      durationMs,
      sent: this.scheduler.sent,
      responses: this.responses,
      pending,
      bytes: this.bytes,
      dropped: this.scheduler.dropped(durationMs),
      peakConnections: this.peakConnections,
      streamLimit: this.streamLimit,
      statusCodes,
      errors: { ...this.errors },
      latency: this.latency,
      perSecond: this.perSecond,
      targetRefusing: this.refusingSince > 0,
      failure: this.failure,
      serverClock: Number.isFinite(this.clock.low) && Number.isFinite(this.clock.high) ? { low: this.clock.low, high: this.clock.high } : null
    })
  }
}
