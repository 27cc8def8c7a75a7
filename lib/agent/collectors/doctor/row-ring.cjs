'use strict'
/**
 * Rows of numbers from the app's main thread to the agent's worker through
 * shared memory: the main thread writes a row in place and commits it, the
 * worker takes the committed rows on its own timer. One writer, one reader,
 * as LineRing, but a row is copied figures: no text to build or encode on
 * the main thread.
 *
 * The header holds the rows ever committed and read (wrapping at 2^32; the
 * capacity is a power of two, so a count's place in the ring is its low
 * bits) and the heartbeat. Past the ring there is one spare row, where a
 * row goes that will be dropped.
 */

const WRITTEN = 0
const READ = 1
const HEARTBEAT = 2
/** Three used; four keep the rows that follow on an 8-byte boundary. */
const HEADER_INTS = 4

class RowRing {
  /**
   * @param {number} rowLength numbers in a row
   * @param {number} capacity rows, a power of two
   */
  static create (rowLength, capacity) {
    if (capacity & (capacity - 1)) throw new RangeError('capacity must be a power of two')
    const buffer = new SharedArrayBuffer(HEADER_INTS * 4 + (capacity + 1) * rowLength * 8)
    return new RowRing(buffer, rowLength)
  }

  /** @param {SharedArrayBuffer} buffer @param {number} rowLength */
  constructor (buffer, rowLength) {
    this.buffer = buffer
    this.rowLength = rowLength
    this.header = new Int32Array(buffer, 0, HEADER_INTS)
    this.values = new Float64Array(buffer, HEADER_INTS * 4)
    this.capacity = this.values.length / rowLength - 1
  }

  /**
   * Main thread: where in `values` to write the next row; commit() makes it
   * the worker's. When the ring is full it is the spare row.
   */
  next () {
    const written = this.header[WRITTEN] >>> 0
    if (((written - (Atomics.load(this.header, READ) >>> 0)) >>> 0) >= this.capacity) return this.capacity * this.rowLength
    return (written & (this.capacity - 1)) * this.rowLength
  }

  /**
   * Main thread: hands over the row written at next().
   * @returns {boolean} false when it was dropped for want of room
   */
  commit () {
    const written = this.header[WRITTEN] >>> 0
    if (((written - (Atomics.load(this.header, READ) >>> 0)) >>> 0) >= this.capacity) return false
    // The store publishes the row's numbers, written before it, to the worker.
    Atomics.store(this.header, WRITTEN, (written + 1) | 0)
    return true
  }

  /**
   * Worker: calls `each` with every row committed since the last take, in
   * order; the row is a view into shared memory, to read before returning.
   * @param {(row: Float64Array) => void} each
   */
  take (each) {
    const written = Atomics.load(this.header, WRITTEN) >>> 0
    let read = Atomics.load(this.header, READ) >>> 0
    while (read !== written) {
      const at = (read & (this.capacity - 1)) * this.rowLength
      each(this.values.subarray(at, at + this.rowLength))
      read = (read + 1) >>> 0
    }
    Atomics.store(this.header, READ, read | 0)
  }

  /** @param {number} ms */
  beat (ms) {
    Atomics.store(this.header, HEARTBEAT, ms)
  }

  lastBeat () {
    return Atomics.load(this.header, HEARTBEAT)
  }
}

module.exports = { RowRing }
