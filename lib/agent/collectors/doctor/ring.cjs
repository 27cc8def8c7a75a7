'use strict'
/**
 * Text lines from the app's main thread to the agent's worker through shared
 * memory: the main thread appends, the worker drains on its own timer. No
 * message wakes the worker a hundred times a second, the lines stay in the
 * order they were taken, and whatever the main thread wrote before it got
 * stuck or exited is there for the worker to read.
 *
 * One writer, one reader. Offsets count bytes ever written and wrap at 2^32;
 * the capacity is a power of two, so an offset's place in the ring is its low
 * bits. A line that does not fit is dropped.
 */

const HEADER_BYTES = 8
const WRITTEN = 0
const READ = 1

class LineRing {
  /** @param {number} capacity bytes, a power of two */
  static create (capacity) {
    return new LineRing(new SharedArrayBuffer(HEADER_BYTES + capacity))
  }

  /** @param {SharedArrayBuffer} buffer */
  constructor (buffer) {
    this.buffer = buffer
    this.header = new Uint32Array(buffer, 0, HEADER_BYTES / 4)
    this.bytes = new Uint8Array(buffer, HEADER_BYTES)
    this.mask = this.bytes.length - 1
    /** @type {Uint8Array | null} */
    this.scratch = null
    /** @type {TextEncoder | null} */
    this.encoder = null
  }

  /**
   * Main thread: appends the text (whole lines).
   * @param {string} text
   * @returns {boolean} false when it was dropped for want of room
   */
  push (text) {
    this.scratch ??= new Uint8Array(64 * 1024)
    this.encoder ??= new TextEncoder()
    const { read, written: length } = this.encoder.encodeInto(text, this.scratch)
    const written = Atomics.load(this.header, WRITTEN)
    if (read < text.length || ((written - Atomics.load(this.header, READ)) >>> 0) + length > this.bytes.length) return false
    const at = written & this.mask
    const first = Math.min(length, this.bytes.length - at)
    this.bytes.set(this.scratch.subarray(0, first), at)
    if (first < length) this.bytes.set(this.scratch.subarray(first, length), 0)
    Atomics.store(this.header, WRITTEN, (written + length) >>> 0)
    return true
  }

  /**
   * Worker: takes everything appended since the last drain.
   * @returns {string}
   */
  drain () {
    const written = Atomics.load(this.header, WRITTEN)
    const read = Atomics.load(this.header, READ)
    const length = (written - read) >>> 0
    if (length === 0) return ''
    const at = read & this.mask
    const first = Math.min(length, this.bytes.length - at)
    const out = Buffer.allocUnsafe(length)
    out.set(this.bytes.subarray(at, at + first), 0)
    if (first < length) out.set(this.bytes.subarray(0, length - first), first)
    Atomics.store(this.header, READ, written)
    return out.toString('utf8')
  }
}

module.exports = { LineRing }
