/**
 * The closed model (autocannon, wrk): each connection sends its next
 * requests as soon as the last ones return, so the server's speed sets the
 * rate. Counts what was handed out, up to `amount`.
 */

/** @typedef {import('./engine.js').LoadConnection} Connection */

export class ClosedModel {
  /** @param {number} amount requests in all, Infinity for no limit @param {number} pipelining */
  constructor (amount, pipelining) {
    this.amount = amount
    this.pipelining = pipelining
    this.sent = 0
    this.stopped = false
  }

  start () {}

  /**
   * A connection with `free` slots asks for work. A pipelined connection is
   * refilled once its whole batch is answered, as wrk does, so that one write
   * carries the next batch: the write is a large part of what a pipelined
   * request costs.
   * @param {Connection} connection @param {number} free @param {number} now
   */
  dispatch (connection, free, now) {
    if (free < this.pipelining || this.stopped) return
    const left = this.amount - this.sent
    const n = free < left ? free : left
    if (n <= 0) return
    this.sent += n
    connection.send(n, now)
  }

  /** Whether requests are still to be handed out. */
  hasMore () {
    return this.sent < this.amount
  }

  /** Requests that were due but never sent: none, the closed model waits for the server. */
  dropped () {
    return 0
  }

  stop () {
    this.stopped = true
  }
}
