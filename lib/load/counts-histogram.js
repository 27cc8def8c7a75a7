import { deflateSync } from 'node:zlib'

/**
 * A run's latencies as the summary reads them: a view of the recorder's
 * counts array, which is laid out like HdrHistogram's (1 µs to 1 hour, 3
 * significant digits). It answers what hdr-histogram-js would, for the
 * methods the summary calls, and encodes to the same bytes; loading that
 * package and filling one of its histograms cost every run ~40 ms of CPU.
 */

const SUB_BUCKET_HALF_COUNT_MAGNITUDE = 10
const SUB_BUCKET_HALF_COUNT = 1 << SUB_BUCKET_HALF_COUNT_MAGNITUDE
const SUB_BUCKET_MASK = (SUB_BUCKET_HALF_COUNT << 1) - 1
export const HIGHEST_US = 3_600_000_000
const BUCKET_COUNT = 22 // 2048 * 2^21 > HIGHEST_US
export const COUNTS_LENGTH = (BUCKET_COUNT + 1) * SUB_BUCKET_HALF_COUNT

// HdrHistogram's V2 encoding, with its "TLZE" word size flag.
const ENCODING_COOKIE = 0x1c849303 | 0x10
const COMPRESSED_ENCODING_COOKIE = 0x1c849304 | 0x10
const SIGNIFICANT_DIGITS = 3

/**
 * The counts index of a value (1 ≤ value ≤ HIGHEST_US).
 * @param {number} v
 */
export function indexOf (v) {
  const bucket = (32 - Math.clz32(v | SUB_BUCKET_MASK)) - (SUB_BUCKET_HALF_COUNT_MAGNITUDE + 1)
  return ((bucket + 1) << SUB_BUCKET_HALF_COUNT_MAGNITUDE) + ((v >>> bucket) - SUB_BUCKET_HALF_COUNT)
}

/** The bucket (power of two of its width) of a counts index. @param {number} i */
function bucketOfIndex (i) {
  const bucket = (i >> SUB_BUCKET_HALF_COUNT_MAGNITUDE) - 1
  return bucket < 0 ? 0 : bucket
}

/**
 * The lowest value a bucket of the counts array holds, in microseconds.
 * @param {number} i
 */
export function bucketValue (i) {
  let bucket = (i >> SUB_BUCKET_HALF_COUNT_MAGNITUDE) - 1
  let sub = (i & (SUB_BUCKET_HALF_COUNT - 1)) + SUB_BUCKET_HALF_COUNT
  if (bucket < 0) {
    sub -= SUB_BUCKET_HALF_COUNT
    bucket = 0
  }
  return sub * 2 ** bucket
}

/** hdr-histogram-js's ulp(): the gap between x and the next double. @param {number} x */
function ulp (x) {
  return 2 ** (Math.floor(Math.log2(x)) - 52)
}

export class CountsHistogram {
  /** @param {Float64Array} counts @param {number} total @param {number} max the largest value recorded, µs (0: none) */
  constructor (counts, total, max) {
    this.counts = counts
    this.totalCount = total
    this.countsArrayLength = COUNTS_LENGTH
    /** Past the max's bucket, every count is 0. */
    this.limit = max > 0 ? indexOf(max) + 1 : 1
    // Where the last percentile's walk stopped: the summary asks for them in
    // increasing order, and each walk resumes there.
    this.walkedTo = 0
    this.walkedCount = 0
  }

  /** @param {number} i */
  getCountAtIndex (i) {
    return this.counts[i]
  }

  /** @param {number} i */
  valueFromIndex (i) {
    return bucketValue(i)
  }

  /** @param {number} v */
  lowestEquivalentValue (v) {
    return bucketValue(indexOf(v))
  }

  /** @param {number} v */
  highestEquivalentValue (v) {
    const i = indexOf(v)
    return bucketValue(i) + 2 ** bucketOfIndex(i) - 1
  }

  /** @param {number} v */
  medianEquivalentValue (v) {
    const i = indexOf(v)
    return bucketValue(i) + Math.floor(2 ** bucketOfIndex(i) / 2)
  }

  /**
   * As HdrHistogram computes it, to the last bit.
   * @param {number} percentile
   */
  getValueAtPercentile (percentile) {
    const fp = (Math.min(percentile, 100) / 100) * this.totalCount
    const at = Math.max(Math.ceil(fp - ulp(fp)), 1)
    let i = 0
    let seen = 0
    if (at > this.walkedCount) {
      i = this.walkedTo
      seen = this.walkedCount
    }
    for (; i < this.limit; i++) {
      seen += this.counts[i]
      if (seen >= at) {
        this.walkedTo = i
        this.walkedCount = seen - this.counts[i]
        const v = bucketValue(i)
        return percentile === 0 ? this.lowestEquivalentValue(v) : this.highestEquivalentValue(v)
      }
    }
    return 0
  }

  /**
   * The value bucket `i` stands for in the mean and deviation: its median,
   * what hdr-histogram-js's medianEquivalentValue(highestEquivalentValue(valueFromIndex(i)))
   * gives, without those three calls.
   * @param {number} i
   */
  medianAtIndex (i) {
    const bucket = bucketOfIndex(i)
    return bucketValue(i) + (bucket === 0 ? 0 : 2 ** (bucket - 1))
  }

  /** The compressed base64 form other HdrHistogram tools read: what hdr-histogram-js's encoder writes. */
  encodeIntoCompressedBase64 () {
    const counts = this.counts
    const limit = this.limit
    // Each count or run of zeros takes at most 9 bytes.
    const payload = Buffer.allocUnsafe(limit * 9)
    let length = 0
    for (let i = 0; i < limit;) {
      const count = counts[i++]
      let zeros = 0
      if (count === 0) {
        zeros = 1
        while (i < limit && counts[i] === 0) {
          zeros++
          i++
        }
      }
      length = zigZag(payload, length, zeros > 1 ? -zeros : count)
    }
    const head = Buffer.alloc(40)
    head.writeInt32BE(ENCODING_COOKIE, 0)
    head.writeInt32BE(length, 4)
    head.writeInt32BE(1, 8) // normalizing index offset, as hdr-histogram-js writes it
    head.writeInt32BE(SIGNIFICANT_DIGITS, 12)
    head.writeBigInt64BE(1n, 16) // lowest discernible value
    head.writeBigInt64BE(BigInt(HIGHEST_US), 24)
    head.writeBigInt64BE(1n, 32) // integer to double conversion ratio, as hdr-histogram-js writes it
    const compressed = deflateSync(Buffer.concat([head, payload.subarray(0, length)]))
    // hdr-histogram-js writes into a 16-byte buffer it grows to fit exactly,
    // so a tiny result keeps that buffer's zero tail.
    const out = Buffer.alloc(Math.max(16, 8 + compressed.length))
    out.writeInt32BE(COMPRESSED_ENCODING_COOKIE, 0)
    out.writeInt32BE(compressed.length, 4)
    compressed.copy(out, 8)
    return out.toString('base64')
  }
}

/**
 * Writes `value` ZigZag LEB128 encoded at `at`, as HdrHistogram does (64-bit
 * words, at most 9 bytes); returns where the next one goes.
 * @param {Buffer} b @param {number} at @param {number} value
 */
function zigZag (b, at, value) {
  let v = value >= 0 ? value * 2 : -value * 2 - 1
  for (let n = 0; n < 8; n++) {
    if (v < 128) {
      b[at++] = v
      return at
    }
    b[at++] = (v % 128) | 0x80
    v = Math.floor(v / 128)
  }
  b[at++] = v
  return at
}
