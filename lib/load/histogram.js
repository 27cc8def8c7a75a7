import { createRequire } from 'node:module'

/**
 * Latencies are recorded in microseconds into an HdrHistogram (3 significant
 * digits, 1 µs to 1 hour). The hot path records into a plain typed array laid
 * out like HdrHistogram's buckets, because hdr-histogram-js's JavaScript
 * `recordValue` costs ~150 ns, a visible share of a request at 100k req/s.
 * Everything else (percentiles, merging, the compact base64 encoding that
 * other HdrHistogram tools read) is hdr-histogram-js's.
 */

/**
 * @typedef {object} Hdr what dyno uses of hdr-histogram-js
 * @property {() => import('hdr-histogram-js').Histogram} create
 * @property {(histogram: import('hdr-histogram-js').Histogram) => string} encode
 * @property {(encoded: string) => import('hdr-histogram-js').Histogram} decode
 */

/**
 * hdr-histogram-js's index also loads its WebAssembly build, its log reader
 * and writer, and their number formats: ~25 ms of CPU at every run's start.
 * The three modules dyno needs are required alone (the last one adds the
 * encoding methods to JsHistogram); should a version of the package lay its
 * files out otherwise, the index does.
 * @returns {Hdr}
 */
function loadHdr () {
  const require = createRequire(import.meta.url)
  try {
    /** @type {typeof import('hdr-histogram-js/dist/JsHistogramFactory.js')} */
    const { constructorFromBucketSize } = require('hdr-histogram-js/dist/JsHistogramFactory.js')
    /** @type {typeof import('hdr-histogram-js/dist/JsHistogram.js')} */
    const { JsHistogram } = require('hdr-histogram-js/dist/JsHistogram.js')
    /** @type {typeof import('hdr-histogram-js/dist/JsHistogram.encoding.js')} */
    const { decompress } = require('hdr-histogram-js/dist/JsHistogram.encoding.js')
    const Histogram = constructorFromBucketSize(64)
    if (typeof JsHistogram.decode !== 'function' || typeof decompress !== 'function') throw new Error('not the layout this knows')
    return {
      // What build() below makes.
      create: () => {
        const histogram = new Histogram(1, HIGHEST_US, 3)
        histogram.autoResize = true
        return histogram
      },
      // Every histogram here is a JsHistogram (create, decode).
      encode: (histogram) => /** @type {import('hdr-histogram-js/dist/JsHistogram.js').JsHistogram} */ (histogram).encodeIntoCompressedBase64(),
      decode: (encoded) => JsHistogram.decode(decompress(new Uint8Array(Buffer.from(encoded.trim(), 'base64'))), 64)
    }
  } catch {
    /** @type {typeof import('hdr-histogram-js')} */
    const hdr = require('hdr-histogram-js')
    return {
      create: () => hdr.build({ bitBucketSize: 64, lowestDiscernibleValue: 1, highestTrackableValue: HIGHEST_US, numberOfSignificantValueDigits: 3 }),
      encode: (histogram) => hdr.encodeIntoCompressedBase64(histogram),
      decode: (encoded) => hdr.decodeFromCompressedBase64(encoded, 64)
    }
  }
}

const SUB_BUCKET_HALF_COUNT_MAGNITUDE = 10 // 3 significant digits: 2048 sub-buckets
const SUB_BUCKET_HALF_COUNT = 1 << SUB_BUCKET_HALF_COUNT_MAGNITUDE
const SUB_BUCKET_MASK = (SUB_BUCKET_HALF_COUNT << 1) - 1
const HIGHEST_US = 3_600_000_000
const BUCKET_COUNT = 22 // 2048 * 2^21 > HIGHEST_US
const COUNTS_LENGTH = (BUCKET_COUNT + 1) * SUB_BUCKET_HALF_COUNT

const hdr = loadHdr()

/** @returns {import('hdr-histogram-js').Histogram} */
export function createHistogram () {
  return hdr.create()
}

/**
 * @typedef {{ count: number, p50: number, p99: number, max: number }} IntervalLatency milliseconds
 */

/**
 * The lowest value a bucket of the counts array holds, in microseconds.
 * @param {number} i
 */
function bucketValue (i) {
  let bucket = (i >> SUB_BUCKET_HALF_COUNT_MAGNITUDE) - 1
  let sub = (i & (SUB_BUCKET_HALF_COUNT - 1)) + SUB_BUCKET_HALF_COUNT
  if (bucket < 0) {
    sub -= SUB_BUCKET_HALF_COUNT
    bucket = 0
  }
  return sub * 2 ** bucket
}

export class LatencyRecorder {
  constructor () {
    /** @type {Float64Array | null} the counts at the last takeInterval() */
    this.mark = null
    this.counts = new Float64Array(COUNTS_LENGTH)
    this.total = 0
    /** Exact, where the buckets keep three significant digits. */
    this.min = Infinity
    this.max = 0
  }

  /** @param {number} us latency in microseconds */
  record (us) {
    const v = us < 1 ? 1 : us > HIGHEST_US ? HIGHEST_US : Math.round(us)
    if (v > this.max) this.max = v
    if (v < this.min) this.min = v
    const bucket = (32 - Math.clz32(v | SUB_BUCKET_MASK)) - (SUB_BUCKET_HALF_COUNT_MAGNITUDE + 1)
    const sub = v >>> bucket
    this.counts[((bucket + 1) << SUB_BUCKET_HALF_COUNT_MAGNITUDE) + (sub - SUB_BUCKET_HALF_COUNT)]++
    this.total++
  }

  /**
   * The median, 99th percentile and max of what was recorded since the last
   * call, in milliseconds (null when nothing was): the last second's latency
   * for the progress reports. It compares the counts with a copy taken at the
   * last call, so recording costs nothing more.
   * @returns {IntervalLatency | null}
   */
  takeInterval () {
    const counts = this.counts
    const mark = (this.mark ??= new Float64Array(COUNTS_LENGTH))
    let n = 0
    for (let i = 0; i < COUNTS_LENGTH; i++) n += counts[i] - mark[i]
    if (n === 0) return null
    const at50 = Math.ceil(n * 0.5)
    const at99 = Math.ceil(n * 0.99)
    let seen = 0
    let p50 = 0
    let p99 = 0
    let max = 0
    for (let i = 0; i < COUNTS_LENGTH; i++) {
      const d = counts[i] - mark[i]
      if (d === 0) continue
      seen += d
      max = bucketValue(i)
      if (p50 === 0 && seen >= at50) p50 = max
      if (p99 === 0 && seen >= at99) p99 = max
    }
    mark.set(counts)
    return { count: n, p50: p50 / 1000, p99: p99 / 1000, max: max / 1000 }
  }

  /** @returns {import('hdr-histogram-js').Histogram} */
  toHistogram () {
    const histogram = createHistogram()
    const counts = this.counts
    for (let i = 0; i < COUNTS_LENGTH; i++) {
      if (counts[i] !== 0) histogram.recordValueWithCount(bucketValue(i), counts[i])
    }
    return histogram
  }
}

/** @param {import('hdr-histogram-js').Histogram} histogram */
export function encodeHistogram (histogram) {
  return hdr.encode(histogram)
}

/** @param {string} encoded */
export function decodeHistogram (encoded) {
  return hdr.decode(encoded)
}
