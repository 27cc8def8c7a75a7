import { createRequire } from 'node:module'
import { COUNTS_LENGTH, CountsHistogram, HIGHEST_US, bucketValue, indexOf } from './counts-histogram.js'

/**
 * Latencies are recorded in microseconds into an HdrHistogram (3 significant
 * digits, 1 µs to 1 hour). The hot path records into a plain typed array laid
 * out like HdrHistogram's buckets, because hdr-histogram-js's JavaScript
 * `recordValue` costs ~150 ns, a visible share of a request at 100k req/s.
 * A run's own summary reads that array (counts-histogram.js); decoding and
 * merging saved histograms is hdr-histogram-js's.
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

/** @type {Hdr | undefined} */
let loaded

/** hdr-histogram-js, loaded at first use: a run's own summary does without it. */
function getHdr () {
  loaded ??= loadHdr()
  return loaded
}

/** @returns {import('hdr-histogram-js').Histogram} */
export function createHistogram () {
  return getHdr().create()
}

/**
 * @typedef {{ count: number, p50: number, p99: number, max: number }} IntervalLatency milliseconds
 */

export class LatencyRecorder {
  constructor () {
    /** @type {Float64Array | null} the counts at the last takeInterval() */
    this.mark = null
    /** The total at the last takeInterval(). */
    this.markTotal = 0
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
    this.counts[indexOf(v)]++
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
    const n = this.total - this.markTotal
    if (n === 0) return null
    const counts = this.counts
    const mark = (this.mark ??= new Float64Array(COUNTS_LENGTH))
    const at50 = Math.ceil(n * 0.5)
    const at99 = Math.ceil(n * 0.99)
    let seen = 0
    let p50 = 0
    let p99 = 0
    let max = 0
    // The walk ends at the interval's own max: nothing it recorded lies past it.
    for (let i = 0; seen < n && i < COUNTS_LENGTH; i++) {
      const d = counts[i] - mark[i]
      if (d === 0) continue
      seen += d
      max = bucketValue(i)
      if (p50 === 0 && seen >= at50) p50 = max
      if (p99 === 0 && seen >= at99) p99 = max
    }
    mark.set(counts.subarray(0, indexOf(this.max) + 1))
    this.markTotal = this.total
    return { count: n, p50: p50 / 1000, p99: p99 / 1000, max: max / 1000 }
  }

  /** What was recorded, as the summary reads it. */
  toHistogram () {
    return new CountsHistogram(this.counts, this.total, this.max)
  }
}

/** @param {import('hdr-histogram-js').Histogram | CountsHistogram} histogram */
export function encodeHistogram (histogram) {
  return histogram instanceof CountsHistogram ? histogram.encodeIntoCompressedBase64() : getHdr().encode(histogram)
}

/** @param {string} encoded */
export function decodeHistogram (encoded) {
  return getHdr().decode(encoded)
}
