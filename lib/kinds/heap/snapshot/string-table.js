/**
 * The strings of a heap snapshot, kept as the raw JSON bytes they arrived
 * in (escapes and all) in large blocks, and decoded only when asked for.
 * A snapshot of a leaking app holds millions of strings: one JS string each
 * would cost more than the graph itself. Each string keeps at most
 * MAX_STRING_BYTES: enough for every name, and a glimpse of long values.
 */

export const MAX_STRING_BYTES = 1024
const BLOCK_BYTES = 16 * 1024 * 1024
const TRUNCATED = 0x8000

export class StringTable {
  constructor () {
    /** @type {Buffer[]} */
    this.blocks = [Buffer.allocUnsafe(BLOCK_BYTES)]
    this.used = 0
    /** start of string i: block index * BLOCK_BYTES + offset */
    this.starts = new Float64Array(1024)
    /** bytes kept of string i; TRUNCATED set when it was longer */
    this.lengths = new Uint16Array(1024)
    this.count = 0
    /** @type {Map<number, string>} */
    this.cache = new Map()
  }

  /** Starts a new string; its bytes follow through add(). */
  begin () {
    if (this.count === this.starts.length) {
      const starts = new Float64Array(this.count * 2)
      starts.set(this.starts)
      this.starts = starts
      const lengths = new Uint16Array(this.count * 2)
      lengths.set(this.lengths)
      this.lengths = lengths
    }
    // A string never straddles two blocks.
    if (this.used + MAX_STRING_BYTES > BLOCK_BYTES) {
      this.blocks.push(Buffer.allocUnsafe(BLOCK_BYTES))
      this.used = 0
    }
    this.starts[this.count] = (this.blocks.length - 1) * BLOCK_BYTES + this.used
    this.lengths[this.count] = 0
    this.count++
  }

  /**
   * Appends raw bytes to the string begun last.
   * @param {Buffer} source @param {number} start @param {number} end
   */
  add (source, start, end) {
    const i = this.count - 1
    const kept = this.lengths[i] & ~TRUNCATED
    const room = MAX_STRING_BYTES - kept
    const take = Math.min(room, end - start)
    if (take > 0) {
      source.copy(this.blocks[this.blocks.length - 1], this.used, start, start + take)
      this.used += take
      this.lengths[i] += take
    }
    if (take < end - start) this.lengths[i] |= TRUNCATED
  }

  /** Gives back the unused end of the last block. */
  finish () {
    const last = this.blocks.length - 1
    this.blocks[last] = Buffer.from(this.blocks[last].subarray(0, this.used))
    this.starts = this.starts.slice(0, this.count)
    this.lengths = this.lengths.slice(0, this.count)
  }

  /** @param {number} index */
  get (index) {
    let text = this.cache.get(index)
    if (text !== undefined) return text
    text = this.decode(index)
    if (this.cache.size > 100_000) this.cache.clear()
    this.cache.set(index, text)
    return text
  }

  /**
   * Which strings start with `prefix` (ASCII, no escapes), one flag per
   * string, from the raw bytes: nothing is decoded.
   * @param {string} prefix
   * @returns {Uint8Array}
   */
  startingWith (prefix) {
    const wanted = Buffer.from(prefix, 'latin1')
    const flags = new Uint8Array(this.count)
    for (let i = 0; i < this.count; i++) {
      if ((this.lengths[i] & ~TRUNCATED) < wanted.length) continue
      const start = this.starts[i]
      const block = this.blocks[Math.floor(start / BLOCK_BYTES)]
      const offset = start % BLOCK_BYTES
      if (block.compare(wanted, 0, wanted.length, offset, offset + wanted.length) === 0) flags[i] = 1
    }
    return flags
  }

  /** @param {number} index */
  truncated (index) {
    return (this.lengths[index] & TRUNCATED) !== 0
  }

  /** @param {number} index */
  decode (index) {
    if (index < 0 || index >= this.count) return ''
    const start = this.starts[index]
    const block = this.blocks[Math.floor(start / BLOCK_BYTES)]
    const offset = start % BLOCK_BYTES
    let raw = block.subarray(offset, offset + (this.lengths[index] & ~TRUNCATED))
    const truncated = this.truncated(index)
    if (raw.indexOf(92) === -1) return raw.toString('utf8') + (truncated ? '…' : '')
    if (truncated) raw = raw.subarray(0, completeEscapes(raw))
    try {
      return JSON.parse('"' + raw.toString('utf8') + '"') + (truncated ? '…' : '')
    } catch {
      return raw.toString('utf8')
    }
  }

  /** Bytes held, for the memory estimate of what follows. */
  get byteLength () {
    return this.blocks.length * BLOCK_BYTES + this.count * 10
  }
}

/**
 * The length of `raw` without a trailing escape sequence cut in two.
 * @param {Buffer} raw
 */
function completeEscapes (raw) {
  const slash = raw.lastIndexOf(92, raw.length - 1)
  if (slash === -1 || slash < raw.length - 6) return raw.length
  // Count the backslashes before it: an even run is an escaped backslash.
  let run = 0
  for (let i = slash; i >= 0 && raw[i] === 92; i--) run++
  if (run % 2 === 0) return raw.length
  const needs = raw[slash + 1] === 117 ? 6 : 2
  return raw.length - slash >= needs ? raw.length : slash
}
