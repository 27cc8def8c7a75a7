/**
 * The figures of each signal over the window under load: what the JSON
 * document, the terminal's key figures and the rules read. Pure functions.
 */
import { gcMsBySample, samplesIn } from './series.js'
import { percentile } from '../../stats/describe.js'

/**
 * @typedef {{ start: number, end: number, max: number }} Span
 *
 * @typedef {object} DoctorSummary
 * @property {number} seconds the window's length
 * @property {number} samples lines of the collector within it
 * @property {number} blockedSamples of them, written while the main thread was stuck
 * @property {{ p50: number, p99: number, max: number }} delay ms: percentiles of the worst loop delay of each sample
 * @property {number} elu mean event-loop utilization, 0..1
 * @property {{ mean: number, max: number, user: number, system: number }} cpu CPU time over wall time (1 = one core); max of any second
 * @property {{ share: number, ms: number, maxPauseMs: number, pauses: Record<string, number> }} gc
 * @property {{ heapUsed: Span | null, heapTotal: number | null, rss: Span | null, external: Span | null, heapAfterFullGc: { beforeLoad: number | null, afterLoad: number | null, inFlightAfter: number } | null }} memory
 *   bytes; start and end are the lows of the first and last second; heapAfterFullGc, what the app held after the full GCs dyno had it run
 *   (inFlightAfter: requests still at work at the one after the load, though it waited for them; -1 when unknown)
 * @property {{ started: number, finished: number, perSecond: number, inFlight: number, serverLatencyMs: number | null, loopMsPerRequest: number | null }} http
 *   the app's own view; serverLatencyMs is the mean time a request spent in the app (requests in flight over requests a second)
 * @property {{ requestsPerSecond: number, latencyP50: number | null, latencyP99: number | null, errors: number, non2xx: number } | null} load
 *   what dyno's load measured; latency null when no request was answered (a latency of 0 ms would read as fast)
 * @property {Record<string, number>} active resources by type, at the end of the window
 * @property {Record<string, { first: number, last: number }>} listeners listener counts at the start and end of the window
 */

/**
 * @param {import('./series.js').DoctorSample[]} samples
 * @param {import('./series.js').Second[]} seconds
 * @param {{ startMs: number, endMs: number }} window
 * @param {import('../../load/summary.js').LoadResult | null} load
 * @param {import('./analyze.js').FullGcs} fullGcs
 * @returns {DoctorSummary}
 */
export function summarize (samples, seconds, window, load, fullGcs) {
  const inside = samplesIn(samples, window)
  const gcMsOf = gcMsBySample(samples)
  const span = total(inside, (s) => s.dt)
  const perSpan = (/** @type {number} */ n) => span > 0 ? n / span : 0
  const delays = inside.map((s) => s.delay?.max ?? 0)
  const sortedDelays = [...delays].sort((a, b) => a - b)
  const finished = total(inside, (s) => s.http?.finished ?? 0)
  const busyMs = total(inside, (s) => s.elu * s.dt)
  const inFlight = perSpan(total(inside, (s) => (s.http?.inFlight ?? 0) * s.dt))
  const perSecond = span > 0 ? finished / (span / 1000) : 0
  /** @type {Record<string, number>} */
  const pauses = {}
  for (const s of inside) {
    for (const [kind, value] of Object.entries(s.gc ?? {})) if (Array.isArray(value)) pauses[kind] = (pauses[kind] ?? 0) + value[0]
  }
  return {
    seconds: (window.endMs - window.startMs) / 1000,
    samples: inside.length,
    blockedSamples: inside.filter((s) => s.blocked).length,
    delay: { p50: percentile(sortedDelays, 50), p99: percentile(sortedDelays, 99), max: Math.max(0, ...delays) },
    elu: perSpan(busyMs),
    cpu: {
      mean: perSpan(total(inside, (s) => s.cpu.user + s.cpu.system)),
      max: Math.max(0, ...seconds.map((s) => s.cpu)),
      user: perSpan(total(inside, (s) => s.cpu.user)),
      system: perSpan(total(inside, (s) => s.cpu.system))
    },
    gc: {
      share: perSpan(total(inside, gcMsOf)),
      ms: total(inside, gcMsOf),
      maxPauseMs: Math.max(0, ...inside.map((s) => typeof s.gc?.max === 'number' ? s.gc.max : 0)),
      pauses
    },
    memory: {
      heapUsed: spanOf(seconds, (s) => s.heapUsedMin),
      heapTotal: Math.max(0, ...seconds.map((s) => s.heapTotal ?? 0)) || null,
      rss: spanOf(seconds, (s) => s.rss),
      external: spanOf(seconds, (s) => s.external),
      heapAfterFullGc: fullGcs.before || fullGcs.after ? { beforeLoad: fullGcs.before?.heapUsed ?? null, afterLoad: fullGcs.after?.heapUsed ?? null, inFlightAfter: fullGcs.after?.inFlight ?? -1 } : null
    },
    http: {
      started: total(inside, (s) => s.http?.started ?? 0),
      finished,
      perSecond,
      inFlight,
      serverLatencyMs: finished > 0 ? (inFlight / perSecond) * 1000 : null,
      loopMsPerRequest: finished > 0 ? busyMs / finished : null
    },
    load: load
      ? { requestsPerSecond: load.requests.average, ...loadLatency(load), errors: load.errors.total, non2xx: load.non2xx }
      : null,
    active: [...inside].reverse().find((s) => s.active)?.active ?? {},
    listeners: listenerGrowth(inside)
  }
}

/**
 * @param {import('./series.js').Second[]} seconds
 * @param {(s: import('./series.js').Second) => number | null} pick
 * @returns {Span | null}
 */
function spanOf (seconds, pick) {
  const values = seconds.map(pick).filter((v) => v !== null)
  if (values.length === 0) return null
  return { start: /** @type {number} */ (values[0]), end: /** @type {number} */ (values.at(-1)), max: Math.max(...values) }
}

/** @param {import('./series.js').DoctorSample[]} samples */
function listenerGrowth (samples) {
  /** @type {Record<string, { first: number, last: number }>} */
  const growth = {}
  for (const s of samples) {
    for (const [label, count] of Object.entries(s.listeners ?? {})) {
      if (growth[label]) growth[label].last = count
      else growth[label] = { first: count, last: count }
    }
  }
  return growth
}

/**
 * @template T
 * @param {T[]} items @param {(item: T) => number} pick
 */
function total (items, pick) {
  let sum = 0
  for (const item of items) sum += pick(item)
  return sum
}

/**
 * The load's latency, or nulls when it got no answer. A record without the
 * count of answers (trimmed test series) keeps its latency.
 * @param {import('../../load/summary.js').LoadResult} load
 */
function loadLatency (load) {
  const answered = load.requests.completed !== 0
  return { latencyP50: answered ? load.latency.percentiles['50'] : null, latencyP99: answered ? load.latency.percentiles['99'] : null }
}
