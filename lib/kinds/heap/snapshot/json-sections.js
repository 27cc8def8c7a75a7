/**
 * A streaming reader for the shape every heap snapshot has: one JSON object
 * whose values are a small object (`snapshot`), long arrays of unsigned
 * integers (`nodes`, `edges`, `locations`, …) and a long array of strings.
 * Bytes arrive in chunks of any size; each top-level value goes to the
 * handler chosen for its key, the numbers in batches, so a gigabyte of
 * numbers costs a tight loop and no object per value.
 *
 * A generic streaming JSON parser hands out one JS value or event per number:
 * hundreds of millions of them for a large snapshot.
 *
 * @typedef {{ kind: 'json', done: (value: unknown) => void }
 *   | { kind: 'numbers', sink: (batch: Float64Array, count: number) => void }
 *   | { kind: 'strings', table: import('./string-table.js').StringTable }
 *   | { kind: 'skip' }} SectionHandler
 */

const QUOTE = 34
const BACKSLASH = 92
const COMMA = 44
const COLON = 58
const OPEN_ARRAY = 91
const CLOSE_ARRAY = 93
const OPEN_OBJECT = 123
const CLOSE_OBJECT = 125

const BEFORE_OBJECT = 0
const BEFORE_KEY = 1
const IN_KEY = 2
const BEFORE_COLON = 3
const BEFORE_VALUE = 4
const IN_VALUE = 5
const DONE = 6

const BATCH = 65536

export class SectionReader {
  /**
   * @param {(key: string) => SectionHandler} handlerFor chosen when a key's value starts
   */
  constructor (handlerFor) {
    this.handlerFor = handlerFor
    this.state = BEFORE_OBJECT
    this.offset = 0
    /** @type {number[]} */
    this.key = []
    /** @type {SectionHandler} */
    this.handler = { kind: 'skip' }
    // Numbers
    this.batch = new Float64Array(BATCH)
    this.batchCount = 0
    this.value = 0
    this.inNumber = false
    this.arrayOpen = false
    // Strings, skipped and captured values
    this.inString = false
    this.backslashes = 0
    this.depth = 0
    this.skipNext = false
    /** @type {Buffer[]} */
    this.captured = []
  }

  get done () {
    return this.state === DONE
  }

  /** @param {Buffer} chunk */
  push (chunk) {
    let i = 0
    const end = chunk.length
    while (i < end) {
      if (this.state === IN_VALUE) {
        i = this.readValue(chunk, i)
        continue
      }
      const c = chunk[i]
      if (c === 32 || c === 10 || c === 13 || c === 9) {
        i++
        continue
      }
      switch (this.state) {
        case BEFORE_OBJECT:
          if (c !== OPEN_OBJECT) this.fail(chunk, i, 'a JSON object')
          this.state = BEFORE_KEY
          break
        case BEFORE_KEY:
          if (c === QUOTE) {
            this.key.length = 0
            this.state = IN_KEY
          } else if (c === CLOSE_OBJECT) {
            this.state = DONE
          } else if (c !== COMMA) {
            this.fail(chunk, i, 'a key')
          }
          break
        case IN_KEY:
          if (c === QUOTE) this.state = BEFORE_COLON
          else this.key.push(c)
          break
        case BEFORE_COLON:
          if (c !== COLON) this.fail(chunk, i, '":"')
          this.state = BEFORE_VALUE
          break
        case BEFORE_VALUE:
          this.startValue(c)
          this.state = IN_VALUE
          continue
        case DONE:
          this.fail(chunk, i, 'the end of the file')
      }
      i++
    }
    this.offset += end
  }

  /** @param {number} c the value's first byte */
  startValue (c) {
    this.handler = this.handlerFor(Buffer.from(this.key).toString('utf8'))
    this.arrayOpen = false
    this.inNumber = false
    this.value = 0
    this.batchCount = 0
    this.inString = false
    this.backslashes = 0
    this.depth = 0
    this.captured = []
    if ((this.handler.kind === 'numbers' || this.handler.kind === 'strings') && c !== OPEN_ARRAY) {
      throw new SnapshotFormatError(`"${Buffer.from(this.key).toString('utf8')}" is not an array`)
    }
  }

  /**
   * @param {Buffer} chunk @param {number} i
   * @returns {number} where reading goes on
   */
  readValue (chunk, i) {
    switch (this.handler.kind) {
      case 'numbers': return this.readNumbers(chunk, i, this.handler.sink)
      case 'strings': return this.readStrings(chunk, i, this.handler.table)
      default: return this.skipValue(chunk, i)
    }
  }

  /**
   * @param {Buffer} chunk @param {number} i
   * @param {(batch: Float64Array, count: number) => void} sink
   */
  readNumbers (chunk, i, sink) {
    const end = chunk.length
    const batch = this.batch
    let value = this.value
    let inNumber = this.inNumber
    let count = this.batchCount
    if (!this.arrayOpen) {
      this.arrayOpen = true
      i++
    }
    for (; i < end; i++) {
      const c = chunk[i]
      if (c >= 48 && c <= 57) {
        value = value * 10 + (c - 48)
        inNumber = true
        continue
      }
      if (inNumber) {
        batch[count++] = value
        value = 0
        inNumber = false
        if (count === BATCH) {
          sink(batch, count)
          count = 0
        }
      }
      if (c === COMMA || c === 32 || c === 10 || c === 13 || c === 9) continue
      if (c === CLOSE_ARRAY) {
        if (count > 0) sink(batch, count)
        this.batchCount = 0
        this.endValue()
        return i + 1
      }
      this.fail(chunk, i, 'an unsigned integer')
    }
    this.value = value
    this.inNumber = inNumber
    this.batchCount = count
    return end
  }

  /**
   * @param {Buffer} chunk @param {number} i
   * @param {import('./string-table.js').StringTable} table
   */
  readStrings (chunk, i, table) {
    const end = chunk.length
    if (!this.arrayOpen) {
      this.arrayOpen = true
      i++
    }
    while (i < end) {
      if (this.inString) {
        const quote = this.closingQuote(chunk, i)
        if (quote === -1) {
          table.add(chunk, i, end)
          return end
        }
        table.add(chunk, i, quote)
        this.inString = false
        i = quote + 1
        continue
      }
      const c = chunk[i]
      if (c === QUOTE) {
        table.begin()
        this.inString = true
        this.backslashes = 0
      } else if (c === CLOSE_ARRAY) {
        this.endValue()
        return i + 1
      } else if (c !== COMMA && c !== 32 && c !== 10 && c !== 13 && c !== 9) {
        this.fail(chunk, i, 'a string')
      }
      i++
    }
    return end
  }

  /**
   * The index of the quote that ends the current string, or -1 when the
   * chunk ends first; remembers the backslashes that end the chunk.
   * @param {Buffer} chunk @param {number} from
   */
  closingQuote (chunk, from) {
    let at = from
    for (;;) {
      const quote = chunk.indexOf(QUOTE, at)
      if (quote === -1) {
        this.backslashes = trailingBackslashes(chunk, from, chunk.length, this.backslashes)
        return -1
      }
      // An odd run of backslashes before a quote escapes it.
      if (trailingBackslashes(chunk, from, quote, this.backslashes) % 2 === 0) return quote
      at = quote + 1
    }
  }

  /**
   * Skips (or, for 'json', captures) one value of any shape.
   * @param {Buffer} chunk @param {number} i
   */
  skipValue (chunk, i) {
    const start = i
    const end = chunk.length
    if (this.skipNext) {
      this.skipNext = false
      i++
    }
    for (; i < end; i++) {
      const c = chunk[i]
      if (this.inString) {
        if (c === BACKSLASH) i++
        else if (c === QUOTE) this.inString = false
        continue
      }
      if (c === QUOTE) {
        this.inString = true
      } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        this.depth++
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
        if (this.depth === 0) return this.finishSkip(chunk, start, i)
        if (--this.depth === 0) return this.finishSkip(chunk, start, i + 1)
      } else if (c === COMMA && this.depth === 0) {
        return this.finishSkip(chunk, start, i)
      }
    }
    // An escape cut by the chunk's end is settled by skipping one byte of the next chunk.
    if (i > end) this.skipNext = true
    if (this.handler.kind === 'json') this.captured.push(Buffer.from(chunk.subarray(start, end)))
    return end
  }

  /** @param {Buffer} chunk @param {number} start @param {number} end */
  finishSkip (chunk, start, end) {
    if (this.handler.kind === 'json') {
      this.captured.push(chunk.subarray(start, end))
      const text = Buffer.concat(this.captured).toString('utf8')
      this.captured = []
      let value
      try {
        value = JSON.parse(text)
      } catch {
        throw new SnapshotFormatError(`"${Buffer.from(this.key).toString('utf8')}" is not valid JSON`)
      }
      this.handler.done(value)
    }
    this.endValue()
    return end
  }

  endValue () {
    this.state = BEFORE_KEY
  }

  /** @param {Buffer} chunk @param {number} i @param {string} expected */
  fail (chunk, i, expected) {
    // A file that is not text shows as what it is, not as bytes echoed to the terminal.
    const seen = chunk.subarray(i, i + 20).toString('utf8').replace(/\s+/g, ' ').replace(/[^\x20-\x7e]/g, '?')
    throw new SnapshotFormatError(`expected ${expected} at byte ${this.offset + i}, found "${seen}"`)
  }
}

/**
 * Backslashes right before `at` (down to `from`, and those carried over
 * from the previous chunk when the run reaches `from`).
 * @param {Buffer} chunk @param {number} from @param {number} at @param {number} carried
 */
function trailingBackslashes (chunk, from, at, carried) {
  let run = 0
  for (let j = at - 1; j >= from && chunk[j] === BACKSLASH; j--) run++
  return run === at - from ? run + carried : run
}

/** The file is not the heap snapshot it should be. */
export class SnapshotFormatError extends Error {}
