/**
 * The doctor report's time series: the collector's samples in buckets (as
 * many as a chart shows well), on one time axis in seconds from the first
 * sample, with the load's per-second figures on the same axis. Pure.
 */
import { MB } from '../../format.js'
import { gcMsSpread } from './series.js'

/** Fewer points than this per series, however long the run. */
const MAX_POINTS = 2000

/**
 * @typedef {object} ChartData
 * @property {number} startMs epoch ms at 0 s
 * @property {number} bucketMs
 * @property {number[]} t the buckets' ends, in seconds from `startMs`
 * @property {Record<string, (number | null)[]>} series each as long as `t`: span (ms the bucket's samples cover),
 *   delayMax, delayP99, delayP50 (ms), elu, cpu, gcShare (%), heapUsed, heapTotal, rss, external (MB: 10^6 bytes), started and
 *   finished (per second, over the last second), inFlight, and `active:<type>` counts
 * @property {{ t: number[], rps: number[], errors: number[], p50: (number | null)[], p99: (number | null)[], max: (number | null)[] }} load
 *   per second, when dyno ran the load: responses, errors, and their latency (ms)
 * @property {string[]} active the resource types charted, most numerous first
 */

/**
 * @param {import('./series.js').DoctorSample[]} samples in time order
 * @param {import('./types.js').LoadTimeline} timeline
 * @returns {ChartData}
 */
export function chartData (samples, timeline) {
  const startMs = samples.length > 0 ? samples[0].t - samples[0].dt : timeline[0]?.atMs ?? 0
  const endMs = samples.length > 0 ? /** @type {import('./series.js').DoctorSample} */ (samples.at(-1)).t : startMs
  const bucketMs = Math.max(10, Math.ceil((endMs - startMs) / MAX_POINTS / 10) * 10)
  const activeTypes = topActiveTypes(samples, 6)
  /** @type {any[]} */
  const buckets = []
  // Each sample's GC time within its span, so that no bucket's share is over 100%.
  const gcMs = gcMsSpread(samples)
  for (const [index, s] of samples.entries()) {
    const i = Math.max(0, Math.floor((s.t - startMs - 1e-9) / bucketMs))
    const b = (buckets[i] ??= { span: 0, busy: 0, cpu: 0, gc: 0, delayMax: null, delayP99: null, delayP50: null, heapUsed: null, heapTotal: null, rss: null, external: null, started: 0, finished: 0, inFlight: null, active: {} })
    b.span += s.dt
    b.busy += s.elu * s.dt
    b.cpu += s.cpu.user + s.cpu.system
    b.gc += gcMs[index]
    if (s.delay) {
      b.delayMax = Math.max(b.delayMax ?? 0, s.delay.max)
      b.delayP99 = Math.max(b.delayP99 ?? 0, s.delay.p99 ?? s.delay.max)
      if (s.delay.p50 !== undefined) b.delayP50 = Math.max(b.delayP50 ?? 0, s.delay.p50)
    }
    const m = s.mem ?? {}
    if (m.heapUsed !== undefined) b.heapUsed = Math.min(b.heapUsed ?? Infinity, m.heapUsed)
    if (m.heapTotal !== undefined) b.heapTotal = Math.max(b.heapTotal ?? 0, m.heapTotal)
    if (m.rss !== undefined) b.rss = m.rss
    if (m.external !== undefined) b.external = m.external
    if (s.http) {
      b.started += s.http.started
      b.finished += s.http.finished
      b.inFlight = Math.max(b.inFlight ?? 0, s.http.inFlight)
    }
    if (s.active) for (const type of activeTypes) b.active[type] = s.active[type] ?? 0
  }
  const t = []
  /** @type {Record<string, (number | null)[]>} */
  const series = { span: [], delayMax: [], delayP99: [], delayP50: [], elu: [], cpu: [], gcShare: [], heapUsed: [], heapTotal: [], rss: [], external: [], started: [], finished: [], inFlight: [] }
  for (const type of activeTypes) series[`active:${type}`] = []
  const mb = (/** @type {number | null} */ n) => n === null ? null : n / MB
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i]
    if (!b || b.span === 0) continue
    t.push(((i + 1) * bucketMs) / 1000)
    const perSecond = (/** @type {number} */ n) => n / (b.span / 1000)
    series.span.push(b.span)
    series.delayMax.push(b.delayMax)
    series.delayP99.push(b.delayP99)
    series.delayP50.push(b.delayP50)
    series.elu.push((b.busy / b.span) * 100)
    series.cpu.push((b.cpu / b.span) * 100)
    series.gcShare.push((b.gc / b.span) * 100)
    series.heapUsed.push(mb(b.heapUsed))
    series.heapTotal.push(mb(b.heapTotal))
    series.rss.push(mb(b.rss))
    series.external.push(mb(b.external))
    series.started.push(perSecond(b.started))
    series.finished.push(perSecond(b.finished))
    series.inFlight.push(b.inFlight)
    for (const type of activeTypes) series[`active:${type}`].push(type in b.active ? b.active[type] : null)
  }
  // Requests a second over the last second, not per bucket: a rate per 10 ms is mostly noise.
  const perBucket = Math.max(1, Math.round(1000 / bucketMs))
  series.started = movingMean(series.started, perBucket)
  series.finished = movingMean(series.finished, perBucket)
  /** @type {ChartData['load']} */
  const load = { t: [], rps: [], errors: [], p50: [], p99: [], max: [] }
  let errors = 0
  for (const tick of timeline) {
    load.t.push((tick.atMs - startMs) / 1000)
    load.rps.push(tick.lastSecond)
    load.errors.push(tick.errors - errors)
    errors = tick.errors
    const latency = tick.lastSecondLatency ?? null
    load.p50.push(latency && latency.p50)
    load.p99.push(latency && latency.p99)
    load.max.push(latency && latency.max)
  }
  return { startMs, bucketMs, t, series, load, active: activeTypes }
}

/**
 * The mean of each value and the `n - 1` before it.
 * @param {(number | null)[]} values @param {number} n
 */
function movingMean (values, n) {
  let sum = 0
  return values.map((v, i) => {
    sum += v ?? 0
    if (i >= n) sum -= values[i - n] ?? 0
    return sum / Math.min(n, i + 1)
  })
}

/**
 * The resource types with the most handles at any time.
 * @param {import('./series.js').DoctorSample[]} samples @param {number} n
 */
function topActiveTypes (samples, n) {
  /** @type {Map<string, number>} */
  const most = new Map()
  for (const s of samples) {
    for (const [type, count] of Object.entries(s.active ?? {})) most.set(type, Math.max(most.get(type) ?? 0, count))
  }
  return [...most].sort((a, b) => b[1] - a[1]).slice(0, n).map(([type]) => type)
}
