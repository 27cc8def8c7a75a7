/**
 * An incremental HTTP/1.1 response parser, written for the load engine's hot
 * path: it reads bytes in place (no copies, no strings) and keeps only what
 * the engine needs: status, body framing and whether the server will close.
 * Responses may arrive split at any byte, or several in one chunk.
 *
 * A line that spans two chunks is carried over in a small buffer; that is the
 * only copy, and it happens only when a packet boundary falls inside a line.
 *
 * A server under load mostly sends the same head again and again, its Date
 * changing once a second. So the parser keeps the last head it read whole
 * from one chunk, with what it found in it (a SavedHead, which the parsers
 * of a load share), and a response whose head has the same bytes skips the
 * line by line reading.
 */

const LF = 10
const CR = 13
const SPACE = 32
const TAB = 9
const COLON = 58

const MAX_LINE = 16 * 1024
const MAX_HEADER_LINES = 200
/** The longest response head the parser remembers (see sameHead). */
const MAX_SAVED_HEAD = 512

const STATUS_LINE = 0
const HEADER_LINE = 1
const BODY_LENGTH = 2
const BODY_UNTIL_CLOSE = 3
const CHUNK_SIZE_LINE = 4
const CHUNK_DATA = 5
const CHUNK_DATA_END = 6
const TRAILER_LINE = 7
const DONE_CLOSING = 8
const FAILED = 9

/** @typedef {'invalid-status' | 'invalid-header' | 'header-too-large' | 'invalid-chunk' | 'upgrade'} ParseErrorKind */

/**
 * What the parser tells its owner (a connection).
 * @typedef {object} ResponseSink
 * @property {() => boolean} expectsNoBody true when the request being answered was a HEAD
 * @property {(status: number, bodyBytes: number, willClose: boolean, body: Buffer | null) => void} onResponse
 * @property {(kind: ParseErrorKind) => void} onParseError
 * @property {() => boolean} [wantsDate] whether the sink wants the next response's Date header (rarely: it reads the server's clock)
 * @property {(date: string) => void} [onDate]
 */

/**
 * The index of the first LF in `b[i..end)`, or `end`. Header lines are most
 * of what the parser reads, and finding their ends most of its time, so it
 * tests four bytes at a time (a word of `words`, the 32-bit view of the
 * memory under `b`, which starts `base` bytes into it) for an LF, and looks
 * at single bytes only around the word that has one.
 * @param {Uint8Array} b @param {Int32Array | null} words @param {number} base @param {number} i @param {number} end
 */
function findLF (b, words, base, i, end) {
  if (words !== null) {
    while (i < end && ((base + i) & 3) !== 0) {
      if (b[i] === LF) return i
      i++
    }
    // Here i is at a word's start, or at the end.
    const last = (base + end) >>> 2
    let k = (base + i) >>> 2
    if (k < last) {
      for (; k < last; k++) {
        // Some byte of x is zero exactly where the word has an LF.
        const x = words[k] ^ 0x0a0a0a0a
        if (((x - 0x01010101) & ~x & 0x80808080) !== 0) break
      }
      i = (k << 2) - base
    }
  }
  while (i < end && b[i] !== LF) i++
  return i
}

/** @param {string} name */
function lowerCodes (name) {
  return Array.from(name, (c) => c.charCodeAt(0))
}

const CONTENT_LENGTH = lowerCodes('content-length')
const TRANSFER_ENCODING = lowerCodes('transfer-encoding')
const CONNECTION = lowerCodes('connection')
const DATE = lowerCodes('date')
const CHUNKED = lowerCodes('chunked')
const CLOSE = lowerCodes('close')
const KEEP_ALIVE = lowerCodes('keep-alive')

/**
 * True when `b[s..e)` equals `codes`, ignoring ASCII case.
 * @param {Uint8Array} b @param {number} s @param {number} e @param {number[]} codes
 */
function equalsLower (b, s, e, codes) {
  if (e - s !== codes.length) return false
  for (let i = 0; i < codes.length; i++) {
    if ((b[s + i] | 0x20) !== codes[i]) return false
  }
  return true
}

/** True when the last token of the list in `b[s..e)` (comma separated) is `codes`. */
function lastTokenIs (/** @type {Uint8Array} */ b, /** @type {number} */ s, /** @type {number} */ e, /** @type {number[]} */ codes) {
  let ts = e
  while (ts > s && b[ts - 1] !== 44 /* , */) ts--
  let te = e
  while (ts < te && (b[ts] === SPACE || b[ts] === TAB)) ts++
  while (te > ts && (b[te - 1] === SPACE || b[te - 1] === TAB)) te--
  return equalsLower(b, ts, te, codes)
}

/**
 * The last head a parser read whole, with what it said. The connections of
 * one load share one: they mostly get the same head from the same server,
 * so one connection's read spares the others theirs, and the bytes compared
 * stay in the CPU's cache where a hundred copies would not.
 */
export class SavedHead {
  constructor () {
    const memory = new ArrayBuffer(MAX_SAVED_HEAD)
    this.bytes = new Uint8Array(memory)
    this.words = new Int32Array(memory)
    /** 0: nothing saved. */
    this.length = 0
    this.status = 0
    this.minorVersion = 1
    this.contentLength = -1
    this.chunked = false
    this.closeHeader = false
    this.keepAliveHeader = false
  }
}

export class ResponseParser {
  /**
   * @param {ResponseSink} sink
   * @param {boolean} [captureBody] keep each body for the sink (costs copies; off by default)
   * @param {SavedHead} [saved] the last head read whole, shared with other parsers
   */
  constructor (sink, captureBody = false, saved = new SavedHead()) {
    this.sink = sink
    this.captureBody = captureBody
    /** @type {Buffer[] | null} */
    this.bodyParts = null
    this.carry = Buffer.allocUnsafe(1024)
    this.carryLength = 0
    /** The last buffer parsed, and the 32-bit view of its memory for findLF(). @type {Uint8Array | null} */
    this.wordsOf = null
    /** `wordsOf`'s offset in its memory. */
    this.wordsBase = 0
    /** @type {Int32Array | null} */
    this.words = null
    // Every field is set here with its final type, so V8 keeps one stable
    // shape for the parser; startResponse() sets the same fields again.
    this.state = STATUS_LINE
    this.status = 0
    this.minorVersion = 1
    this.contentLength = -1
    this.chunked = false
    this.closeHeader = false
    this.keepAliveHeader = false
    this.headerLines = 0
    this.remaining = 0
    this.bodyBytes = 0
    /** Where the head being read starts in the chunk being parsed; -1: not all in it. */
    this.headFrom = -1
    this.saved = saved
    /**
     * Whether this parser has read a head line by line. Until it has, it
     * does not take a saved one: with the head shared, the run's very first
     * response would otherwise be the only one read so, too early for V8 to
     * note how that path runs, and the optimized parser would be thrown away
     * and compiled again at the first head that differs (the next second's
     * Date). Each connection's first response pays for it once.
     */
    this.readOneHead = false
    /** Set by headersDone() for the head that ends on the line being read. */
    this.headEnded = false
    this.reset()
  }

  /** Ready for a fresh response on a fresh connection. */
  reset () {
    this.state = STATUS_LINE
    this.carryLength = 0
    this.startResponse()
  }

  startResponse () {
    this.status = 0
    this.minorVersion = 1
    this.contentLength = -1
    this.chunked = false
    this.closeHeader = false
    this.keepAliveHeader = false
    this.headerLines = 0
    this.remaining = 0
    this.bodyBytes = 0
    if (this.captureBody) this.bodyParts = []
  }

  /**
   * The peer closed the connection. A body framed by the close completes here.
   * @returns {boolean} true when that completed a response
   */
  finish () {
    if (this.state === BODY_UNTIL_CLOSE) {
      this.complete(true)
      return true
    }
    return false
  }

  /**
   * Parses `buf[start..end)`. Calls the sink for each response and error.
   * @param {Buffer} buf @param {number} start @param {number} end
   */
  execute (buf, start, end) {
    let i = start
    // The engine parses from one buffer all along (reading its .buffer is a call into V8).
    if (buf !== this.wordsOf) {
      const memory = buf.buffer
      this.wordsOf = buf
      this.wordsBase = buf.byteOffset
      // Word indexes must fit 32-bit arithmetic; past 2 GB, findLF goes byte by byte.
      this.words = memory.byteLength < 2 ** 31 ? new Int32Array(memory, 0, memory.byteLength >>> 2) : null
    }
    const words = this.words
    const base = this.wordsBase
    this.headFrom = -1
    while (i < end) {
      const state = this.state
      if (state === STATUS_LINE && this.carryLength === 0) {
        const n = this.saved.length
        if (n !== 0 && this.readOneHead && end - i >= n && this.sameHead(buf, words, base, i, n) && !this.sink.wantsDate?.()) {
          this.restoreHead()
          i += n
          this.headersDone()
          continue
        }
        this.headFrom = i
      }
      if (state === BODY_LENGTH || state === CHUNK_DATA) {
        const n = Math.min(this.remaining, end - i)
        if (this.bodyParts !== null) this.bodyParts.push(Buffer.from(buf.subarray(i, i + n)))
        this.remaining -= n
        this.bodyBytes += n
        i += n
        if (this.remaining === 0) {
          if (state === BODY_LENGTH) this.complete(false)
          else this.state = CHUNK_DATA_END
        }
      } else if (state === BODY_UNTIL_CLOSE) {
        if (this.bodyParts !== null) this.bodyParts.push(Buffer.from(buf.subarray(i, end)))
        this.bodyBytes += end - i
        return
      } else if (state === DONE_CLOSING || state === FAILED) {
        return
      } else {
        // Every other state reads one line.
        const lf = findLF(buf, words, base, i, end)
        if (lf === end) {
          this.keep(buf, i, end)
          return
        }
        if (this.carryLength === 0) {
          this.line(buf, i, lf > i && buf[lf - 1] === CR ? lf - 1 : lf)
          if (this.headEnded) this.saveHead(buf, lf + 1)
        } else {
          this.keep(buf, i, lf)
          const c = this.carry
          const n = this.carryLength
          this.carryLength = 0
          if (this.state !== FAILED) this.line(c, 0, n > 0 && c[n - 1] === CR ? n - 1 : n)
          this.headEnded = false
        }
        i = lf + 1
      }
    }
  }

  /**
   * Whether `buf[i..i+n)` are the bytes of the saved head: compared four at
   * a time when both are aligned alike (a response at the start of the read buffer).
   * @param {Buffer} buf @param {Int32Array | null} words @param {number} base @param {number} i @param {number} n
   */
  sameHead (buf, words, base, i, n) {
    const saved = this.saved.bytes
    let k = 0
    if (words !== null && ((base + i) & 3) === 0) {
      const savedWords = this.saved.words
      const w = (base + i) >>> 2
      const whole = n >>> 2
      for (; k < whole; k++) {
        if (words[w + k] !== savedWords[k]) return false
      }
      k <<= 2
    }
    for (; k < n; k++) {
      if (buf[i + k] !== saved[k]) return false
    }
    return true
  }

  /** A head ended at `buf[end]`: keeps it for sameHead() when all of it was read from `buf`, since headFrom. @param {Buffer} buf @param {number} end */
  saveHead (buf, end) {
    this.headEnded = false
    const from = this.headFrom
    this.headFrom = -1
    const n = end - from
    if (from < 0 || n > MAX_SAVED_HEAD) return
    this.saved.bytes.set(buf.subarray(from, end))
    this.saved.length = n
  }

  /** What the saved head said, as if it had been read again. */
  restoreHead () {
    const saved = this.saved
    this.status = saved.status
    this.minorVersion = saved.minorVersion
    this.contentLength = saved.contentLength
    this.chunked = saved.chunked
    this.closeHeader = saved.closeHeader
    this.keepAliveHeader = saved.keepAliveHeader
  }

  /** Keeps the start of a line that continues in the next chunk. */
  keep (/** @type {Buffer} */ buf, /** @type {number} */ s, /** @type {number} */ e) {
    this.headFrom = -1
    const need = this.carryLength + (e - s)
    if (need > MAX_LINE) return this.fail('header-too-large')
    if (need > this.carry.length) {
      const bigger = Buffer.allocUnsafe(Math.min(MAX_LINE, need * 2))
      this.carry.copy(bigger, 0, 0, this.carryLength)
      this.carry = bigger
    }
    buf.copy(this.carry, this.carryLength, s, e)
    this.carryLength = need
  }

  /** @param {ParseErrorKind} kind */
  fail (kind) {
    this.state = FAILED
    this.carryLength = 0
    this.sink.onParseError(kind)
  }

  /**
   * One complete line, without its CRLF.
   * @param {Buffer} b @param {number} s @param {number} e
   */
  line (b, s, e) {
    switch (this.state) {
      case STATUS_LINE: return this.statusLine(b, s, e)
      case HEADER_LINE: return this.headerLine(b, s, e)
      case CHUNK_SIZE_LINE: return this.chunkSizeLine(b, s, e)
      case CHUNK_DATA_END:
        if (e !== s) return this.fail('invalid-chunk')
        this.state = CHUNK_SIZE_LINE
        return
      case TRAILER_LINE:
        if (e === s) this.complete(false)
    }
  }

  /** `HTTP/1.1 200 OK` @param {Buffer} b @param {number} s @param {number} e */
  statusLine (b, s, e) {
    // Tolerate stray empty lines between responses, as browsers do.
    if (e === s) return
    if (e - s < 12 || b[s] !== 72 || b[s + 1] !== 84 || b[s + 2] !== 84 || b[s + 3] !== 80 ||
      b[s + 4] !== 47 || b[s + 5] !== 49 || b[s + 6] !== 46 || b[s + 8] !== SPACE) {
      return this.fail('invalid-status')
    }
    const d0 = b[s + 9] - 48
    const d1 = b[s + 10] - 48
    const d2 = b[s + 11] - 48
    if (d0 < 1 || d0 > 5 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9 || (e - s > 12 && b[s + 12] !== SPACE)) {
      return this.fail('invalid-status')
    }
    this.status = d0 * 100 + d1 * 10 + d2
    this.minorVersion = b[s + 7] - 48
    this.state = HEADER_LINE
  }

  /** `Name: value`, or the empty line that ends the headers. @param {Buffer} b @param {number} s @param {number} e */
  headerLine (b, s, e) {
    if (e === s) {
      this.noteHead()
      return this.headersDone()
    }
    if (++this.headerLines > MAX_HEADER_LINES) return this.fail('header-too-large')
    // Only three headers matter, so look for a colon where theirs would be
    // instead of scanning every line for it.
    let colon
    if (b[s + 14] === COLON) colon = s + 14
    else if (b[s + 10] === COLON) colon = s + 10
    else if (b[s + 17] === COLON) colon = s + 17
    else if (b[s + 4] === COLON) return this.dateLine(b, s, e)
    else return
    if (colon >= e) return
    let vs = colon + 1
    let ve = e
    while (vs < ve && (b[vs] === SPACE || b[vs] === TAB)) vs++
    while (ve > vs && (b[ve - 1] === SPACE || b[ve - 1] === TAB)) ve--
    if (equalsLower(b, s, colon, CONTENT_LENGTH)) {
      let n = 0
      if (vs === ve) return this.fail('invalid-header')
      for (let i = vs; i < ve; i++) {
        const d = b[i] - 48
        if (d < 0 || d > 9) return this.fail('invalid-header')
        n = n * 10 + d
      }
      if (this.contentLength !== -1 && this.contentLength !== n) return this.fail('invalid-header')
      this.contentLength = n
    } else if (equalsLower(b, s, colon, TRANSFER_ENCODING)) {
      this.chunked = lastTokenIs(b, vs, ve, CHUNKED)
    } else if (equalsLower(b, s, colon, CONNECTION)) {
      this.connectionTokens(b, vs, ve)
    }
  }

  /**
   * Notes `close` and `keep-alive` among the tokens of a Connection header, `b[s..e)`, in one pass.
   * @param {Buffer} b @param {number} s @param {number} e
   */
  connectionTokens (b, s, e) {
    let t = s
    for (let i = s; i <= e; i++) {
      if (i === e || b[i] === 44 /* , */) {
        let ts = t
        let te = i
        while (ts < te && (b[ts] === SPACE || b[ts] === TAB)) ts++
        while (te > ts && (b[te - 1] === SPACE || b[te - 1] === TAB)) te--
        if (equalsLower(b, ts, te, KEEP_ALIVE)) this.keepAliveHeader = true
        else if (equalsLower(b, ts, te, CLOSE)) this.closeHeader = true
        t = i + 1
      }
    }
  }

  /** `Date: Wed, 26 Nov 2026 10:00:00 GMT`, when the sink wants it. @param {Buffer} b @param {number} s @param {number} e */
  dateLine (b, s, e) {
    if (!equalsLower(b, s, s + 4, DATE) || !this.sink.wantsDate?.()) return
    this.sink.onDate?.(b.toString('latin1', s + 5, e).trim())
  }

  /** The head just read ends here: notes what it said, for saveHead() to keep with its bytes. */
  noteHead () {
    const saved = this.saved
    this.readOneHead = true
    this.headEnded = true
    saved.length = 0
    saved.status = this.status
    saved.minorVersion = this.minorVersion
    saved.contentLength = this.contentLength
    saved.chunked = this.chunked
    saved.closeHeader = this.closeHeader
    saved.keepAliveHeader = this.keepAliveHeader
  }

  headersDone () {
    const status = this.status
    if (status < 200) {
      if (status === 101) return this.fail('upgrade')
      // 100 Continue, 103 Early Hints: the real response follows.
      this.startResponse()
      this.state = STATUS_LINE
      return
    }
    if (status === 204 || status === 304 || this.sink.expectsNoBody()) return this.complete(false)
    if (this.chunked) {
      this.state = CHUNK_SIZE_LINE
    } else if (this.contentLength > 0) {
      this.remaining = this.contentLength
      this.state = BODY_LENGTH
    } else if (this.contentLength === 0) {
      this.complete(false)
    } else {
      this.state = BODY_UNTIL_CLOSE
    }
  }

  /** `1a2b;ext=1` @param {Buffer} b @param {number} s @param {number} e */
  chunkSizeLine (b, s, e) {
    let n = 0
    let i = s
    for (; i < e; i++) {
      const c = b[i] | 0x20
      let d
      if (c >= 48 && c <= 57) d = c - 48
      else if (c >= 97 && c <= 102) d = c - 87
      else break
      n = n * 16 + d
      if (n > Number.MAX_SAFE_INTEGER / 16) return this.fail('invalid-chunk')
    }
    if (i === s || (i < e && b[i] !== 59 /* ; */ && b[i] !== SPACE && b[i] !== TAB)) return this.fail('invalid-chunk')
    if (n === 0) {
      this.state = TRAILER_LINE
    } else {
      this.remaining = n
      this.state = CHUNK_DATA
    }
  }

  /** @param {boolean} byClose the body ended with the connection */
  complete (byClose) {
    const willClose = byClose || this.closeHeader || (this.minorVersion === 0 && !this.keepAliveHeader)
    const parts = this.bodyParts
    const status = this.status
    const bodyBytes = this.bodyBytes
    this.startResponse()
    this.state = willClose ? DONE_CLOSING : STATUS_LINE
    this.sink.onResponse(status, bodyBytes, willClose, parts === null ? null : Buffer.concat(parts))
  }
}
