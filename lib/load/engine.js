import { describeConnectError } from './connect-error.js'
import { Connection } from './connection.js'
import { LatencyRecorder } from './histogram.js'

/**
 * Runs one load in this thread: a set of connections, a clock, and the
 * counters they update. Two models:
 *
 * - closed: each connection sends its next request as soon as one returns
 *   (autocannon, wrk); the server's speed sets the rate.
 * - open (`rate`): requests are due at evenly spaced instants whatever the
 *   server does. Latency counts from the instant a request was due, not when
 *   it could finally be sent, so a stalled server shows in the tail instead of
 *   silently slowing the load down (coordinated omission, as wrk2 corrects it).
 *   When every connection is busy, more are opened, up to `maxConnections`.
 */

/** Open model: how long every connection must wait on the server before more are opened. */
const GROW_AFTER_MS = 5

/** @typedef {'timeout' | 'reset' | 'refused' | 'closed' | 'invalid' | 'tls' | 'other'} ErrorKind */

/**
 * @typedef {object} EngineConfig
 * @property {{ tls: boolean, hostname: string, port: number, host: string, servername?: string, insecure: boolean, ca?: string | Buffer }} target
 * @property {import('./request.js').EncodedRequest[]} requests
 * @property {number} connections
 * @property {number} pipelining
 * @property {number} durationMs Infinity for no limit
 * @property {number} amount Infinity for no limit
 * @property {number} timeoutMs
 * @property {number} rate requests per second in total; 0 for the closed model
 * @property {number} maxConnections
 * @property {(tick: EngineTick) => void} [onTick] called once a second
 */

/**
 * @typedef {object} EngineTick
 * @property {number} elapsedMs
 * @property {number} responses in total so far
 * @property {number} errors in total so far
 * @property {number} lastSecondResponses
 */

/**
 * What one engine measured, in a form that adds up across engines (workers).
 * @typedef {object} RawResult
 * @property {number} startedAt epoch ms
 * @property {number} durationMs
 * @property {number} sent
 * @property {number} responses
 * @property {number} bytes
 * @property {number} dropped requests that were due but never sent (open model)
 * @property {number} peakConnections
 * @property {Record<string, number>} statusCodes
 * @property {Record<ErrorKind, number>} errors
 * @property {LatencyRecorder} latency
 * @property {{ responses: number[], bytes: number[] }} perSecond
 * @property {boolean} targetRefusing the target was refusing connections when the run ended
 */

export class LoadEngine {
  /** @param {EngineConfig} config */
  constructor (config) {
    this.config = config
    this.target = config.target
    this.requests = config.requests
    this.pipelining = config.pipelining
    this.openModel = config.rate > 0
    this.identicalRequests = config.requests.length === 1 && config.requests[0].bytes !== null
    this.captureBody = config.requests.some((r) => typeof r.spec.onResponse === 'function')
    this.readBuffer = Buffer.allocUnsafe(64 * 1024)
    /** Requests repeated `pipelining` times, so a batch is one slice and one write. */
    this.burst = this.identicalRequests
      ? Buffer.concat(Array(config.pipelining).fill(config.requests[0].bytes))
      : Buffer.alloc(0)

    this.stopped = false
    this.everConnected = false
    this.startTime = 0
    this.startedAt = 0
    this.sent = 0
    this.settled = 0
    this.responses = 0
    this.bytes = 0
    this.errorCount = 0
    /** When connections started being refused, with none accepted since; 0 while the target accepts. */
    this.refusingSince = 0
    this.statusCounts = new Float64Array(600)
    /** @type {Record<ErrorKind, number>} */
    this.errors = { timeout: 0, reset: 0, refused: 0, closed: 0, invalid: 0, tls: 0, other: 0 }
    this.latency = new LatencyRecorder()
    /** @type {{ responses: number[], bytes: number[] }} */
    this.perSecond = { responses: [], bytes: [] }
    this.lastTick = { responses: 0, bytes: 0, at: 0 }

    // Open model: request k is due at startTime + k * interval.
    this.interval = this.openModel ? 1000 / config.rate : 0
    this.issued = 0
    /** @type {Connection[]} */
    this.connections = []
    /** @type {Connection[]} */
    this.idle = []
    this.peakConnections = 0
    this.growPending = false

    /** @type {NodeJS.Timeout[]} */
    this.timers = []
    /** @type {NodeJS.Timeout | null} */
    this.scheduleTimer = null
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
      for (let i = 0; i < config.connections; i++) this.openConnection()
      if (Number.isFinite(config.durationMs)) this.timers.push(setTimeout(() => this.stop(), config.durationMs))
      this.timers.push(setInterval(() => this.tick(), 1000))
      const sweep = Math.max(5, Math.min(250, config.timeoutMs / 4))
      this.timers.push(setInterval(() => this.checkTimeouts(), sweep))
      if (this.openModel) this.schedule()
    })
  }

  openConnection () {
    const connection = new Connection(this)
    this.connections.push(connection)
    if (this.connections.length > this.peakConnections) this.peakConnections = this.connections.length
    connection.connect()
  }

  /**
   * Closed model: how many of `wanted` requests a connection may send now.
   * @param {number} wanted
   */
  claim (wanted) {
    if (this.stopped) return 0
    const left = this.config.amount - this.sent
    const n = wanted < left ? wanted : left
    if (n <= 0) return 0
    this.sent += n
    return n
  }

  /**
   * Open model: gives a connection with `free` slots the requests now due.
   * @param {Connection} connection @param {number} free
   */
  dispatch (connection, free) {
    if (this.stopped) return
    const due = this.dueCount(connection.now)
    const n = Math.min(free, due - this.issued)
    if (n > 0) {
      const intended = this.startTime + this.issued * this.interval
      this.issued += n
      this.sent += n
      connection.send(n, intended, this.interval)
    } else if (!connection.idle) {
      connection.idle = true
      connection.idleSince = connection.now
      this.idle.push(connection)
    }
  }

  /** Requests due by `now`, counting from the first at the start. @param {number} now */
  dueCount (now) {
    const due = Math.floor((now - this.startTime) / this.interval) + 1
    return due < this.config.amount ? due : this.config.amount
  }

  /** Open model: hands due requests to idle connections, then sleeps until the next is due. */
  schedule () {
    this.scheduleTimer = null
    if (this.stopped) return
    const now = performance.now()
    while (this.idle.length > 0 && this.issued < this.dueCount(now)) {
      const connection = /** @type {Connection} */ (this.idle.pop())
      if (connection.socket === null || !connection.connected || !connection.idle) continue
      connection.now = now
      connection.pump()
    }
    const backlog = this.dueCount(now) - this.issued
    if (backlog > 0 && this.connections.length < this.config.maxConnections && !this.growPending) {
      // Timers run before the loop reads sockets: let responses that already
      // arrived free their connections before deciding that more are needed.
      this.growPending = true
      setImmediate(() => this.grow())
    }
    if (this.issued >= this.config.amount) return
    const nextDue = this.startTime + this.issued * this.interval
    const wait = backlog > 0 ? 1 : Math.max(1, Math.floor(nextDue - now))
    this.scheduleTimer = setTimeout(() => this.schedule(), wait)
  }

  /**
   * Open model: requests are waiting. Opens more connections only when the
   * server is what holds them up, that is when every connection has waited
   * on its oldest request for a while. When this thread is the slow one (a
   * cold JIT, a GC pause), more sockets would only slow it down further.
   * Grows by at most half again at a time.
   */
  grow () {
    this.growPending = false
    if (this.stopped) return
    const now = performance.now()
    const backlog = this.dueCount(now) - this.issued
    if (backlog <= 0) return
    for (const c of this.connections) {
      if (c.connected && (c.inflight < this.pipelining || now - c.sentAt[c.oldest] < GROW_AFTER_MS)) return
    }
    const opening = this.connections.reduce((n, c) => n + (c.connected ? 0 : 1), 0)
    const room = this.config.maxConnections - this.connections.length
    const step = Math.max(1, Math.ceil(this.connections.length / 2))
    for (let i = Math.min(backlog, step, room) - opening; i > 0; i--) this.openConnection()
  }

  /** @param {number} ms @param {number} status */
  recordResponse (ms, status) {
    this.latency.record(ms * 1000)
    this.statusCounts[status]++
    this.responses++
    this.settle(1)
  }

  /** @param {ErrorKind} kind @param {number} n */
  countErrors (kind, n) {
    this.errors[kind] += n
    this.errorCount += n
    if (kind === 'refused' && this.refusingSince === 0) this.refusingSince = performance.now()
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
    this.config.onTick?.({
      elapsedMs: now - this.startTime,
      responses: this.responses,
      errors: this.errorCount,
      lastSecondResponses: responses
    })
  }

  /**
   * The first connection failed before any succeeded: the target is down,
   * unresolvable or untrusted. Rejects the run.
   * @param {NodeJS.ErrnoException} err
   */
  failToStart (err) {
    this.fail(describeConnectError(err, this.target))
  }

  /**
   * Ends the run with an error instead of a result.
   * @param {Error} err
   */
  fail (err) {
    if (this.stopped) return
    this.halt()
    this.reject(err)
  }

  halt () {
    this.stopped = true
    for (const timer of this.timers) clearTimeout(timer)
    if (this.scheduleTimer !== null) clearTimeout(this.scheduleTimer)
    for (const connection of this.connections) connection.drop()
  }

  stop () {
    if (this.stopped) return
    const durationMs = performance.now() - this.startTime
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
    // Requests that fell due in the last few ms were simply not sent yet.
    const dropped = this.openModel
      ? Math.max(0, this.dueCount(this.startTime + durationMs - GROW_AFTER_MS) - this.issued)
      : 0
    this.resolve({
      startedAt: this.startedAt,
      durationMs,
      sent: this.sent,
      responses: this.responses,
      bytes: this.bytes,
      dropped,
      peakConnections: this.peakConnections,
      statusCodes,
      errors: this.errors,
      latency: this.latency,
      perSecond: this.perSecond,
      targetRefusing: this.refusingSince > 0
    })
  }
}
