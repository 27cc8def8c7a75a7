import { performance } from 'node:perf_hooks'
import { MAX_TIMER_MS } from './timers.js'

/**
 * The open model's scheduler: request k is due at `start + k * interval`,
 * whatever the server does. Latency counts from the instant a request was
 * due, not when it could finally be sent, so a stalled server shows in the
 * tail instead of silently slowing the load down (coordinated omission, as
 * wrk2 corrects it). Due requests go to connections with a free slot; when
 * every connection has waited on the server for a while, more are opened,
 * up to `maxConnections`.
 */

/** How long every connection must wait on the server before more are opened. */
export const GROW_AFTER_MS = 5

/** @typedef {import('./engine.js').LoadConnection} Connection */

/**
 * The connections the scheduler hands requests to, and the way to open one more.
 * @typedef {object} Pool
 * @property {readonly Connection[]} connections
 * @property {() => void} openConnection
 */

/**
 * How many requests fall due in a run of `durationMs` at `rate` per second:
 * those due strictly before its end, the first at its start.
 * @param {number} rate @param {number} durationMs Infinity for no limit
 */
export function requestsDue (rate, durationMs) {
  if (!Number.isFinite(durationMs)) return Infinity
  const exact = rate * durationMs / 1000
  // 0.1 * 30 is 3.0000000000000004, which must still be 3.
  return Math.max(1, Math.ceil(exact - exact * 1e-12))
}

export class OpenModel {
  /**
   * @param {{ rate: number, phaseMs?: number, amount: number, maxConnections: number }} plan
   *   `amount`: the requests this scheduler hands out in all (Infinity for no limit);
   *   `phaseMs`: when the first is due after the start (a stripe of a load split in parts)
   * @param {Pool} pool
   */
  constructor (plan, pool) {
    this.interval = 1000 / plan.rate
    this.phaseMs = plan.phaseMs ?? 0
    this.amount = plan.amount
    this.maxConnections = plan.maxConnections
    this.pool = pool
    /** When this scheduler's first request is due: the load's start, plus its phase. */
    this.startTime = 0
    this.sent = 0
    /** Connections waiting for the next request to fall due. @type {Connection[]} */
    this.idle = []
    this.growPending = false
    this.stopped = false
    /** @type {NodeJS.Timeout | null} */
    this.timer = null
  }

  /** @param {number} startTime when the load starts, `performance.now()` ms */
  start (startTime) {
    this.startTime = startTime + this.phaseMs
    this.schedule()
  }

  /** Requests due by `now`, counting from the first at the start. @param {number} now */
  dueCount (now) {
    if (now < this.startTime) return 0
    const due = Math.floor((now - this.startTime) / this.interval) + 1
    return due < this.amount ? due : this.amount
  }

  /**
   * A connection with `free` slots asks for work: it gets the requests now
   * due, or waits among the idle ones until the next falls due.
   * @param {Connection} connection @param {number} free @param {number} now
   */
  dispatch (connection, free, now) {
    if (this.stopped) return
    const n = Math.min(free, this.dueCount(now) - this.sent)
    if (n > 0) {
      const intended = this.startTime + this.sent * this.interval
      this.sent += n
      connection.send(n, intended, this.interval)
    } else if (connection.markIdle(now)) {
      this.idle.push(connection)
    }
  }

  /** Hands due requests to idle connections, then sleeps until the next is due. */
  schedule () {
    this.timer = null
    if (this.stopped) return
    const now = performance.now()
    while (this.idle.length > 0 && this.sent < this.dueCount(now)) {
      /** @type {Connection} */ (this.idle.pop()).wake(now)
    }
    const backlog = this.dueCount(now) - this.sent
    if (backlog > 0 && this.pool.connections.length < this.maxConnections && !this.growPending) {
      // Timers run before the loop reads sockets: let responses that already
      // arrived free their connections before deciding that more are needed.
      this.growPending = true
      setImmediate(() => this.grow())
    }
    if (this.sent >= this.amount) return
    const nextDue = this.startTime + this.sent * this.interval
    const wait = backlog > 0 ? 1 : Math.min(MAX_TIMER_MS, Math.max(1, Math.floor(nextDue - now)))
    this.timer = setTimeout(() => this.schedule(), wait)
  }

  /**
   * Requests are waiting. Opens more connections only when the server is
   * what holds them up, that is when every connection has waited on its
   * oldest request for a while. When this thread is the slow one (a cold
   * JIT, a GC pause), more sockets would only slow it down further. Grows by
   * at most half again at a time.
   */
  grow () {
    this.growPending = false
    if (this.stopped) return
    const now = performance.now()
    const backlog = this.dueCount(now) - this.sent
    if (backlog <= 0) return
    const connections = this.pool.connections
    let opening = 0
    for (const connection of connections) {
      if (!connection.isConnected()) opening++
      else if (!connection.isStuck(now, GROW_AFTER_MS)) return
    }
    const room = this.maxConnections - connections.length
    const step = Math.max(1, Math.ceil(connections.length / 2))
    for (let i = Math.min(backlog, step, room) - opening; i > 0; i--) this.pool.openConnection()
  }

  /** Whether requests are still to be handed out. */
  hasMore () {
    return this.sent < this.amount
  }

  /**
   * Requests that were due but never sent, in a run that lasted `durationMs`.
   * Those that fell due in its last few ms were simply not sent yet.
   * @param {number} durationMs
   */
  dropped (durationMs) {
    return Math.max(0, this.dueCount(this.startTime - this.phaseMs + durationMs - GROW_AFTER_MS) - this.sent)
  }

  stop () {
    this.stopped = true
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }
}
