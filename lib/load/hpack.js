/**
 * HPACK (RFC 7541), as much of it as a load generator needs.
 *
 * Requests: a header block is encoded once per request, before the run, from
 * the static table and literals that are never indexed, without Huffman
 * coding; it starts with a dynamic table size update to 0, so that whatever
 * the server's table size, ours stays empty.
 *
 * Responses: dyno announces SETTINGS_HEADER_TABLE_SIZE 0, so the server's
 * dynamic table is empty and a block refers only to the static table. The
 * decoder reads :status (and, when asked, the Date header) and skips every
 * other field by its encoded length, allocating nothing on the way.
 */

/** The static table (RFC 7541, Appendix A): [name, value], index 1 first. */
export const STATIC_TABLE = /** @type {const} */ ([
  [':authority', ''], [':method', 'GET'], [':method', 'POST'], [':path', '/'], [':path', '/index.html'],
  [':scheme', 'http'], [':scheme', 'https'], [':status', '200'], [':status', '204'], [':status', '206'],
  [':status', '304'], [':status', '400'], [':status', '404'], [':status', '500'], ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'], ['accept-language', ''], ['accept-ranges', ''], ['accept', ''],
  ['access-control-allow-origin', ''], ['age', ''], ['allow', ''], ['authorization', ''], ['cache-control', ''],
  ['content-disposition', ''], ['content-encoding', ''], ['content-language', ''], ['content-length', ''],
  ['content-location', ''], ['content-range', ''], ['content-type', ''], ['cookie', ''], ['date', ''],
  ['etag', ''], ['expect', ''], ['expires', ''], ['from', ''], ['host', ''], ['if-match', ''],
  ['if-modified-since', ''], ['if-none-match', ''], ['if-range', ''], ['if-unmodified-since', ''],
  ['last-modified', ''], ['link', ''], ['location', ''], ['max-forwards', ''], ['proxy-authenticate', ''],
  ['proxy-authorization', ''], ['range', ''], ['referer', ''], ['refresh', ''], ['retry-after', ''],
  ['server', ''], ['set-cookie', ''], ['strict-transport-security', ''], ['transfer-encoding', ''],
  ['user-agent', ''], ['vary', ''], ['via', ''], ['www-authenticate', '']
])

const STATUS_INDEX = 8
const DATE_INDEX = 33
/** The statuses of static indexes 8 to 14. */
const STATIC_STATUS = [200, 204, 206, 304, 400, 404, 500]

// Encoding

/**
 * Appends `value` as an HPACK integer whose first byte has `prefix` bits
 * free, the bits above them set to `high`.
 * @param {number[]} out @param {number} value @param {number} prefix @param {number} high
 */
function pushInteger (out, value, prefix, high) {
  const max = (1 << prefix) - 1
  if (value < max) {
    out.push(high | value)
    return
  }
  out.push(high | max)
  value -= max
  while (value >= 128) {
    out.push((value % 128) + 128)
    value = Math.floor(value / 128)
  }
  out.push(value)
}

/** A string literal, not Huffman-coded. @param {number[]} out @param {string} text */
function pushString (out, text) {
  const bytes = Buffer.from(text, 'latin1')
  pushInteger(out, bytes.length, 7, 0)
  for (const byte of bytes) out.push(byte)
}

/**
 * The header block of a request: `fields` in order, lower-case names, the
 * pseudo-headers first. Fields in the static table are indexed; the others
 * are literals the server must not index.
 * @param {Iterable<readonly [string, string]>} fields
 * @returns {Buffer}
 */
export function encodeHeaderBlock (fields) {
  /** @type {number[]} */
  const out = [0x20] // dynamic table size update: 0
  for (const [name, value] of fields) {
    let nameIndex = 0
    let exact = 0
    for (let i = 0; i < STATIC_TABLE.length; i++) {
      if (STATIC_TABLE[i][0] !== name) continue
      if (nameIndex === 0) nameIndex = i + 1
      if (STATIC_TABLE[i][1] === value) { exact = i + 1; break }
    }
    if (exact > 0) {
      pushInteger(out, exact, 7, 0x80)
      continue
    }
    // Literal header field never indexed (0001xxxx): a name from the static table, or a literal one.
    pushInteger(out, nameIndex, 4, 0x10)
    if (nameIndex === 0) pushString(out, name)
    pushString(out, value)
  }
  return Buffer.from(out)
}

// Huffman coding (RFC 7541, Appendix B)

/**
 * The length of each symbol's code, symbols 0 to 255 and EOS (256). The code
 * is canonical: codes of one length follow each other in symbol order, after
 * the shorter ones, so these lengths make the whole table.
 */
const CODE_LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6,
  12, 10, 13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13,
  14, 6, 15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5, 6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14,
  13, 28, 20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23, 24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23,
  23, 24, 22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, 21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22,
  22, 23, 26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, 19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27,
  27, 27, 20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23, 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27,
  27, 26, 30
]
const EOS = 256
const MAX_CODE_LENGTH = 30

/** Each symbol's code (its low CODE_LENGTHS[symbol] bits). */
const CODES = new Uint32Array(257)
/** For each length: the first code of that length, how many there are, and where their symbols start in SYMBOLS. */
const FIRST_CODE = new Float64Array(MAX_CODE_LENGTH + 1)
const CODE_COUNT = new Uint16Array(MAX_CODE_LENGTH + 1)
const FIRST_SYMBOL = new Uint16Array(MAX_CODE_LENGTH + 1)
/** The symbols, shortest code first, in symbol order within a length. */
const SYMBOLS = new Uint16Array(257)
{
  let code = 0
  let at = 0
  for (let length = 1; length <= MAX_CODE_LENGTH; length++) {
    FIRST_CODE[length] = code
    FIRST_SYMBOL[length] = at
    for (let symbol = 0; symbol <= EOS; symbol++) {
      if (CODE_LENGTHS[symbol] !== length) continue
      CODES[symbol] = code++
      SYMBOLS[at++] = symbol
    }
    CODE_COUNT[length] = at - FIRST_SYMBOL[length]
    code *= 2
  }
}

/** The code of `symbol`, as a string of bits (for tests). @param {number} symbol */
export function huffmanCode (symbol) {
  return CODES[symbol].toString(2).padStart(CODE_LENGTHS[symbol], '0')
}

/**
 * Huffman-codes `bytes`, padding the last byte with the start of EOS (ones).
 * @param {Uint8Array} bytes
 * @returns {Buffer}
 */
export function huffmanEncode (bytes) {
  /** @type {number[]} */
  const out = []
  let acc = 0
  let bits = 0
  for (const byte of bytes) {
    const length = CODE_LENGTHS[byte]
    const code = CODES[byte]
    for (let i = length - 1; i >= 0; i--) {
      acc = (acc << 1) | (Math.floor(code / 2 ** i) & 1)
      if (++bits === 8) {
        out.push(acc)
        acc = 0
        bits = 0
      }
    }
  }
  if (bits > 0) out.push((acc << (8 - bits)) | (0xff >> bits))
  return Buffer.from(out)
}

/**
 * Decodes the Huffman-coded `buf[start..end)` into `out`.
 * @param {Uint8Array} buf @param {number} start @param {number} end @param {Uint8Array} out
 * @returns {number} the bytes decoded, or -1 when the string is malformed (or longer than `out`)
 */
export function huffmanDecode (buf, start, end, out) {
  let n = 0
  let code = 0
  let length = 0
  /** Whether every bit since the last symbol was a one: padding must be. */
  let ones = true
  for (let i = start; i < end; i++) {
    const byte = buf[i]
    for (let bit = 7; bit >= 0; bit--) {
      const b = (byte >> bit) & 1
      code = code * 2 + b
      length++
      if (b === 0) ones = false
      const index = code - FIRST_CODE[length]
      if (index >= 0 && index < CODE_COUNT[length]) {
        const symbol = SYMBOLS[FIRST_SYMBOL[length] + index]
        if (symbol === EOS || n === out.length) return -1
        out[n++] = symbol
        code = 0
        length = 0
        ones = true
      } else if (length === MAX_CODE_LENGTH) {
        return -1
      }
    }
  }
  // What is left is padding: fewer than 8 bits, all ones.
  return length < 8 && ones ? n : -1
}

// Decoding responses

/** The Huffman codings of the names dyno looks for, to recognize them unread. */
const STATUS_NAME = Buffer.from(':status')
const STATUS_NAME_HUFFMAN = huffmanEncode(STATUS_NAME)
const DATE_NAME = Buffer.from('date')
const DATE_NAME_HUFFMAN = huffmanEncode(DATE_NAME)

/**
 * What the decoder found in a response's header block. One lives as long as
 * its connection; `decode` refills it.
 */
export class ResponseHead {
  constructor () {
    /** The :status, 0 when the block had none. */
    this.status = 0
    /** The Date header, when asked for and present. @type {string | null} */
    this.date = null
    /** What was wrong with the last block, or null. @type {string | null} */
    this.error = null
    /** Where the last integer read ended. */
    this.pos = 0
    /** Decoded string literals land here. */
    this.scratch = Buffer.allocUnsafe(256)
  }

  /**
   * Reads the header block `buf[start..end)`.
   * @param {Uint8Array} buf @param {number} start @param {number} end
   * @param {boolean} wantDate read the Date header too
   * @param {((name: string, value: string) => void) | null} [onField] sees every field (tests)
   * @returns {boolean} false when the block is malformed (`error` says why)
   */
  decode (buf, start, end, wantDate, onField = null) {
    this.status = 0
    this.date = null
    this.error = null
    let pos = start
    while (pos < end) {
      const first = buf[pos]
      let prefix
      let indexed = false
      if (first >= 0x80) {
        indexed = true
        prefix = 7
      } else if (first >= 0x40) {
        prefix = 6 // literal with incremental indexing: our table is 0 bytes, so the entry is evicted at once
      } else if (first >= 0x20) {
        const size = this.integer(buf, pos, end, 5)
        if (size < 0) return false
        if (size > 0) return this.reject(`a dynamic table size update to ${size}, above the 0 dyno allows`)
        pos = this.pos
        continue
      } else {
        prefix = 4 // literal without indexing, or never indexed
      }
      const index = this.integer(buf, pos, end, prefix)
      if (index < 0) return false
      pos = this.pos
      if (indexed) {
        if (index === 0 || index > STATIC_TABLE.length) return this.reject(`a reference to entry ${index} of an empty dynamic table`)
        if (index >= STATUS_INDEX && index < STATUS_INDEX + STATIC_STATUS.length) this.status = STATIC_STATUS[index - STATUS_INDEX]
        onField?.(STATIC_TABLE[index - 1][0], STATIC_TABLE[index - 1][1])
        continue
      }
      if (index > STATIC_TABLE.length) return this.reject(`a reference to entry ${index} of an empty dynamic table`)
      // The field's name: which one of ours it is, if any.
      // Any of the static :status entries (8 to 14) names the field.
      let which = index >= STATUS_INDEX && index < STATUS_INDEX + STATIC_STATUS.length ? STATUS_INDEX : index === DATE_INDEX ? DATE_INDEX : 0
      let name = index > 0 ? STATIC_TABLE[index - 1][0] : ''
      if (index === 0) {
        const length = this.integer(buf, pos, end, 7)
        if (length < 0) return false
        const huffman = buf[pos] >= 0x80
        pos = this.pos
        if (pos + length > end) return this.reject('a name longer than its block')
        if (equals(buf, pos, length, huffman ? STATUS_NAME_HUFFMAN : STATUS_NAME)) which = STATUS_INDEX
        else if (equals(buf, pos, length, huffman ? DATE_NAME_HUFFMAN : DATE_NAME)) which = DATE_INDEX
        if (onField !== null) name = this.text(buf, pos, pos + length, huffman) ?? ''
        pos += length
      }
      const length = this.integer(buf, pos, end, 7)
      if (length < 0) return false
      const huffman = buf[pos] >= 0x80
      pos = this.pos
      if (pos + length > end) return this.reject('a value longer than its block')
      if (which === STATUS_INDEX) {
        const status = this.statusOf(buf, pos, pos + length, huffman)
        if (status < 0) return false
        this.status = status
      } else if (which === DATE_INDEX && wantDate) {
        this.date = this.text(buf, pos, pos + length, huffman)
      }
      if (onField !== null) onField(name, this.text(buf, pos, pos + length, huffman) ?? '')
      pos += length
    }
    return true
  }

  /**
   * An integer with `prefix` bits in its first byte at `pos`; `this.pos` is
   * then the byte after it. -1 when it is cut short or absurd.
   * @param {Uint8Array} buf @param {number} pos @param {number} end @param {number} prefix
   */
  integer (buf, pos, end, prefix) {
    if (pos >= end) return this.fail('a field cut short')
    const max = (1 << prefix) - 1
    let value = buf[pos++] & max
    if (value === max) {
      let shift = 1
      let byte
      do {
        if (pos === end) return this.fail('an integer cut short')
        byte = buf[pos++]
        value += (byte & 0x7f) * shift
        shift *= 128
      } while (byte >= 0x80 && shift < 2 ** 28)
      if (byte >= 0x80) return this.fail('an integer too large')
    }
    this.pos = pos
    return value
  }

  /**
   * A :status value: three digits.
   * @param {Uint8Array} buf @param {number} start @param {number} end @param {boolean} huffman
   */
  statusOf (buf, start, end, huffman) {
    let digits = buf
    if (huffman) {
      const n = huffmanDecode(buf, start, end, this.scratch)
      if (n < 0) return this.fail('a malformed Huffman string')
      digits = this.scratch
      start = 0
      end = n
    }
    if (end - start !== 3) return this.fail('a :status that is not three digits')
    let status = 0
    for (let i = start; i < end; i++) {
      const d = digits[i] - 48
      if (d < 0 || d > 9) return this.fail('a :status that is not three digits')
      status = status * 10 + d
    }
    if (status < 100 || status > 599) return this.fail(`a :status of ${status}`)
    return status
  }

  /**
   * A string literal's text, or null when its Huffman coding is malformed.
   * @param {Uint8Array} buf @param {number} start @param {number} end @param {boolean} huffman
   */
  text (buf, start, end, huffman) {
    if (!huffman) return Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString('latin1')
    // A Huffman code is at least 5 bits a byte: the text is at most 8/5 of its coding.
    if (this.scratch.length < (end - start) * 2) this.scratch = Buffer.allocUnsafe((end - start) * 2)
    const n = huffmanDecode(buf, start, end, this.scratch)
    return n < 0 ? null : this.scratch.toString('latin1', 0, n)
  }

  /** A malformed block, in a number's place. @param {string} why @returns {-1} */
  fail (why) {
    this.error = why
    return -1
  }

  /** A malformed block. @param {string} why @returns {false} */
  reject (why) {
    this.error = why
    return false
  }
}

/**
 * Whether `buf[start..start+length)` holds `expected`.
 * @param {Uint8Array} buf @param {number} start @param {number} length @param {Uint8Array} expected
 */
function equals (buf, start, length, expected) {
  if (length !== expected.length) return false
  for (let i = 0; i < length; i++) if (buf[start + i] !== expected[i]) return false
  return true
}
