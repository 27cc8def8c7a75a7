import { describe } from '../stats/describe.js'
import { CountsHistogram } from './counts-histogram.js'
import { LatencyRecorder, createHistogram, decodeHistogram, encodeHistogram } from './histogram.js'
import { displayUrl } from './options.js'
import { shareOf, stripe } from './segment.js'

/**
 * Pure functions from what the engines measured to the result users read.
 */

export const SCHEMA_VERSION = 1

/** Percentiles of latency in every result (the terminal's `-l` table shows them all). */
export const LATENCY_PERCENTILES = [0.001, 0.01, 0.1, 1, 2.5, 10, 25, 50, 75, 90, 97.5, 99, 99.9, 99.99, 99.999]
/** Percentiles of the per-second samples, as autocannon shows them. */
export const SAMPLE_PERCENTILES = [1, 2.5, 50, 97.5]

/** @typedef {import('./engine.js').RawResult} RawResult */
/** @typedef {import('./engine.js').ErrorKind} ErrorKind */

/**
 * @typedef {object} SampleStats
 * @property {number} mean
 * @property {number} stdev
 * @property {number} min
 * @property {number} max
 * @property {Record<string, number>} percentiles
 * @property {number[]} samples
 */

/**
 * @typedef {object} LoadResult
 * @property {number} schemaVersion
 * @property {string} url a password in it shows as `***`
 * @property {string} method
 * @property {'closed' | 'open'} model
 * @property {string | null} socket the unix socket loaded, when not the URL's host and port
 * @property {'HTTP/1.1' | 'HTTP/2'} protocol
 * @property {number} connections
 * @property {number} pipelining
 * @property {number | null} streams HTTP/2: concurrent streams asked for on each connection
 * @property {number | null} streamLimit HTTP/2: the fewest concurrent streams the server allowed a connection, when below `streams`
 * @property {number} workers
 * @property {number | null} rate requests per second asked for (open model)
 * @property {string} startedAt ISO time
 * @property {number} duration seconds actually run
 * @property {boolean} interrupted stopped early by the caller (Ctrl-C, signal)
 * @property {{ sent: number, completed: number, pending: number, average: number, perSecond: SampleStats, dropped: number }} requests
 *   `pending`: sent and still waiting for an answer when the run ended
 * @property {{ total: number, average: number, perSecond: SampleStats }} bytes
 * @property {{ unit: 'ms', mean: number, stdev: number, min: number, max: number, percentiles: Record<string, number>, histogram: { encoding: 'HdrHistogram-compressed-base64', unit: 'us', data: string } }} latency
 * @property {Record<string, number>} statusCodes
 * @property {number} non2xx
 * @property {Record<ErrorKind, number> & { total: number }} errors
 * @property {number} peakConnections
 * @property {boolean} targetRefusing
 * @property {import('./engine.js').RunFailure | null} failure the mistake that ended the run early
 *   (a request hook threw, or built a request that cannot be sent); the figures are what was measured until then
 * @property {{ duration: number | null, amount: number | null, timeout: number }} plan what was asked of the whole load:
 *   seconds (null: until `amount` is done), requests (null: no limit), seconds a request may wait
 * @property {{ index: number, count: number, connections: number, amount: number | null, rate: number | null }} segment
 *   this generator's part of the load (0/1: the whole), and its share of connections, requests and rate
 * @property {string | null} startAt the common start it waited for (`--start-at`), ISO time; `startedAt` is when it did start
 * @property {Generator} generator the machine that made the load
 * @property {{ low: number, high: number } | null} serverClock how far the server's clock was ahead of
 *   the generator's, in ms, bounded from the server's Date headers (null: it sent none). Generators whose
 *   bounds do not overlap by a second had clocks apart: their start times do not compare.
 */

/**
 * @typedef {object} Generator
 * @property {string} host
 * @property {number} pid
 * @property {number} threads the threads that made the load (the worker threads, or this one)
 * @property {number} cpu the share of those threads' time spent on the CPU, 0 to 1: near 1, the
 *   generator, not the server, set the pace
 * @property {boolean | null} rawWrite plain (not TLS) sockets were written and read past Node's streams (raw-write.js, raw-read.js);
 *   false: this Node offers no way to (or --pending-deprecation is on), and each request cost more
 *   CPU; null: not known (a result of an older dyno)
 */

/**
 * Adds up what several engines (worker threads) measured.
 * @param {RawResult[]} parts
 * @returns {RawResult}
 */
export function mergeRaw (parts) {
  const [first, ...rest] = parts
  const latency = new LatencyRecorder()
  /** @type {RawResult} */
  const merged = {
    ...first,
    statusCodes: { ...first.statusCodes },
    errors: { ...first.errors },
    latency,
    perSecond: { responses: [...first.perSecond.responses], bytes: [...first.perSecond.bytes] }
  }
  addCounts(latency, first.latency)
  for (const part of rest) {
    merged.startedAt = Math.min(merged.startedAt, part.startedAt)
    merged.durationMs = Math.max(merged.durationMs, part.durationMs)
    merged.sent += part.sent
    merged.responses += part.responses
    merged.pending += part.pending
    merged.failure = merged.failure ?? part.failure
    merged.bytes += part.bytes
    merged.dropped += part.dropped
    merged.peakConnections += part.peakConnections
    merged.targetRefusing = merged.targetRefusing || part.targetRefusing
    merged.serverClock = narrower(merged.serverClock, part.serverClock)
    if (part.streamLimit != null) merged.streamLimit = Math.min(merged.streamLimit ?? Infinity, part.streamLimit)
    for (const [code, n] of Object.entries(part.statusCodes)) merged.statusCodes[code] = (merged.statusCodes[code] ?? 0) + n
    for (const kind of /** @type {ErrorKind[]} */ (Object.keys(part.errors))) merged.errors[kind] += part.errors[kind]
    addSamples(merged.perSecond.responses, part.perSecond.responses)
    addSamples(merged.perSecond.bytes, part.perSecond.bytes)
    addCounts(latency, part.latency)
  }
  return merged
}

/**
 * Two bounds of one clock offset, together.
 * @param {RawResult['serverClock']} a @param {RawResult['serverClock']} b
 */
function narrower (a, b) {
  if (!a || !b) return a ?? b ?? null
  return { low: Math.max(a.low, b.low), high: Math.min(a.high, b.high) }
}

/** @param {LatencyRecorder} into @param {{ counts: Float64Array, total: number, min: number, max: number }} from */
function addCounts (into, from) {
  for (let i = 0; i < from.counts.length; i++) into.counts[i] += from.counts[i]
  into.total += from.total
  into.min = Math.min(into.min, from.min)
  into.max = Math.max(into.max, from.max)
}

/** Sums per-second samples second by second; the shorter series ends early. @param {number[]} into @param {number[]} from */
function addSamples (into, from) {
  const n = Math.min(into.length, from.length)
  for (let i = 0; i < n; i++) into[i] += from[i]
  into.length = n
}

/**
 * @param {RawResult} raw
 * @param {import('./options.js').ResolvedOptions} options
 * @param {{ interrupted: boolean, cpuMs: number, host: string, pid: number, rawWrite: boolean }} how
 * @returns {LoadResult}
 */
export function summarize (raw, options, how) {
  const seconds = raw.durationMs / 1000
  const threads = Math.max(1, options.workers)
  const errorTotal = Object.values(raw.errors).reduce((a, b) => a + b, 0)
  let non2xx = 0
  for (const [code, n] of Object.entries(raw.statusCodes)) if (code[0] !== '2') non2xx += n
  return {
    schemaVersion: SCHEMA_VERSION,
    url: displayUrl(options.url.href),
    method: options.method,
    model: options.rate > 0 ? 'open' : 'closed',
    socket: options.target.socketPath ?? null,
    protocol: options.target.http2 ? 'HTTP/2' : 'HTTP/1.1',
    connections: options.connections,
    pipelining: options.pipelining,
    streams: options.target.http2 ? options.streams : null,
    streamLimit: raw.streamLimit ?? null,
    workers: options.workers,
    rate: options.rate > 0 ? options.rate : null,
    startedAt: new Date(raw.startedAt).toISOString(),
    duration: round(seconds, 3),
    interrupted: how.interrupted,
    requests: {
      sent: raw.sent,
      completed: raw.responses,
      pending: raw.pending,
      average: seconds > 0 ? round(raw.responses / seconds, 2) : 0,
      perSecond: sampleStats(raw.perSecond.responses),
      dropped: raw.dropped
    },
    bytes: {
      total: raw.bytes,
      average: seconds > 0 ? round(raw.bytes / seconds, 0) : 0,
      perSecond: sampleStats(raw.perSecond.bytes)
    },
    latency: latencySummary(raw.latency.toHistogram(), raw.latency.min, raw.latency.max),
    statusCodes: raw.statusCodes,
    non2xx,
    errors: { total: errorTotal, ...raw.errors },
    peakConnections: raw.peakConnections,
    targetRefusing: raw.targetRefusing,
    failure: raw.failure,
    plan: {
      duration: Number.isFinite(options.durationMs) ? options.durationMs / 1000 : null,
      amount: Number.isFinite(options.amount) ? options.amount : null,
      timeout: options.timeoutMs / 1000
    },
    segment: segmentShare(options),
    startAt: options.startAt === null ? null : new Date(options.startAt).toISOString(),
    serverClock: raw.serverClock ? { low: Math.round(raw.serverClock.low), high: Math.round(raw.serverClock.high) } : null,
    generator: { host: how.host, pid: how.pid, threads, cpu: raw.durationMs > 0 ? round(Math.min(1, how.cpuMs / (raw.durationMs * threads)), 3) : 0, rawWrite: how.rawWrite }
  }
}

/** @param {import('./options.js').ResolvedOptions} options */
function segmentShare (options) {
  const at = stripe([options.segment])
  const amount = shareOf(options.amount, at)
  return {
    ...options.segment,
    connections: shareOf(options.connections, at),
    amount: Number.isFinite(amount) ? amount : null,
    rate: options.rate > 0 ? options.rate / at.stride : null
  }
}

/**
 * The latency figures of a result, from its histogram (µs) and the exact
 * extremes; what `dyno merge` computes again from many histograms added up.
 * @param {import('hdr-histogram-js').Histogram | import('./counts-histogram.js').CountsHistogram} histogram
 * @param {number} min µs
 * @param {number} max µs
 * @returns {LoadResult['latency']}
 */
export function latencySummary (histogram, min, max) {
  const empty = histogram.totalCount === 0
  // A bucket stands for a range of values, and HdrHistogram reports its top:
  // within the exact extremes, no percentile reads above the max.
  const within = (/** @type {number} */ us) => empty ? 0 : usToMs(Math.min(max, Math.max(min, us)))
  /** @type {Record<string, number>} */
  const percentiles = {}
  for (const p of LATENCY_PERCENTILES) percentiles[String(p)] = within(histogram.getValueAtPercentile(p))
  const { mean, stdev } = moments(histogram)
  return {
    unit: 'ms',
    mean: within(mean),
    stdev: empty ? 0 : usToMs(stdev),
    min: within(min),
    max: within(max),
    percentiles,
    histogram: { encoding: 'HdrHistogram-compressed-base64', unit: 'us', data: encodeHistogram(histogram) }
  }
}

/**
 * A histogram's mean and standard deviation, as its `mean` and
 * `stdDeviation` getters compute them (each bucket counts as its median
 * value, added up in the same order: the same figures to the last bit), but
 * without their iterator; a run's own histogram is walked up to its max's
 * bucket, with its buckets' medians computed directly.
 * @param {import('hdr-histogram-js').Histogram | CountsHistogram} histogram
 */
function moments (histogram) {
  const n = histogram.totalCount
  if (n === 0) return { mean: 0, stdev: 0 }
  const h = /** @type {import('hdr-histogram-js/dist/JsHistogram.js').JsHistogram} */ (histogram)
  const own = histogram instanceof CountsHistogram
  const length = own ? histogram.limit : h.countsArrayLength
  /** @type {(i: number) => number} */
  const median = own
    ? (i) => histogram.medianAtIndex(i)
    : (i) => h.medianEquivalentValue(h.highestEquivalentValue(h.valueFromIndex(i)))
  let total = 0
  let seen = 0
  let last = 0
  for (let i = 0; i < length && seen < n; i++) {
    const count = h.getCountAtIndex(i)
    if (count === 0) continue
    total += median(i) * count
    seen += count
    last = i
  }
  const mean = total / n
  let squares = 0
  for (let i = 0; i <= last; i++) {
    const count = h.getCountAtIndex(i)
    if (count === 0) continue
    const deviation = median(i) - mean
    squares += deviation * deviation * count
  }
  return { mean, stdev: Math.sqrt(squares / n) }
}

/**
 * The latency figures of many results' requests together: their histograms
 * add up exactly, and so do their extremes.
 * @param {LoadResult[]} results
 * @param {(import('hdr-histogram-js').Histogram | undefined)[]} [decoded] their histograms where decoded already
 * @returns {LoadResult['latency']}
 */
export function mergedLatency (results, decoded = []) {
  const histogram = createHistogram()
  results.forEach((r, i) => histogram.add(decoded[i] ?? decodeHistogram(r.latency.histogram.data)))
  const answered = results.filter((r) => r.requests.completed > 0)
  const minUs = answered.length ? Math.min(...answered.map((r) => r.latency.min * 1000)) : 0
  const maxUs = answered.length ? Math.max(...answered.map((r) => r.latency.max * 1000)) : 0
  return latencySummary(histogram, minUs, maxUs)
}

/**
 * autocannon's figures of per-second samples.
 * @param {number[]} samples
 * @returns {SampleStats}
 */
export function sampleStats (samples) {
  const d = describe(samples, SAMPLE_PERCENTILES)
  return { ...d, mean: round(d.mean, 2), stdev: round(d.stdev, 2), samples }
}

/** @param {number} us */
function usToMs (us) {
  return round(us / 1000, 3)
}

/** @param {number} x @param {number} digits */
export function round (x, digits) {
  const f = 10 ** digits
  return Math.round(x * f) / f
}
