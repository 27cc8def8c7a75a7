import { percentile } from '../../stats/describe.js'

/**
 * The doctor collector's lines (see lib/agent/collectors/doctor.cjs), read
 * and cut into the window under load and its seconds. Pure functions.
 */

/**
 * One line of `<pid>.doctor.jsonl`.
 * @typedef {object} DoctorSample
 * @property {number} t epoch ms
 * @property {number} dt ms since the line before
 * @property {{ min?: number, p50?: number, p99?: number, max: number, n?: number } | null} [delay]
 * @property {number} elu 0..1
 * @property {{ user: number, system: number }} cpu ms
 * @property {{ heapTotal?: number, heapUsed?: number, rss?: number, external?: number, arrayBuffers?: number }} mem bytes
 * @property {Record<string, [number, number] | number>} [gc] kind → [pauses, ms], and max
 * @property {{ started: number, finished: number, inFlight: number }} [http]
 * @property {Record<string, [number, number]>} [spaces]
 * @property {Record<string, number>} [active]
 * @property {Record<string, number>} [listeners]
 * @property {true} [blocked] written by the agent's worker while the main thread was stuck
 */

/**
 * @typedef {object} LoadWindow
 * @property {number} startMs
 * @property {number} endMs
 * @property {'load' | 'on-port' | 'requests' | 'run'} source how it was found: dyno ran the load or
 *   the --on-port command, the app's own request counts, or (no requests at all) the whole run
 */

/**
 * @typedef {object} Second figures of one second (or the part of it the samples cover)
 * @property {number} t epoch ms at its start
 * @property {number} span ms its samples cover
 * @property {number} delayP99 99th percentile of the worst loop delay of each sample, ms
 * @property {number} delayMax ms
 * @property {number} heldMs time in loop turns of `heldTurnMs` or longer
 * @property {number} codeHeldMs the same, less the GC pauses within those turns
 * @property {number} elu 0..1
 * @property {number} cpu CPU time over wall time (1 = one core)
 * @property {number} gcMs
 * @property {number} gcMaxMs the longest pause
 * @property {Record<string, number>} gcPauses by kind
 * @property {number | null} heapUsedMin the trough: after the young generation was collected
 * @property {number | null} heapUsedMax
 * @property {number | null} heapTotal
 * @property {number | null} rss the lowest read in the second
 * @property {number | null} rssOutsideHeap the lowest of rss less the V8 heap's size: native memory, code, buffers
 * @property {number | null} external external memory (array buffers included), lowest read
 * @property {number | null} externalMax the highest read
 * @property {number} started requests
 * @property {number} finished
 * @property {number} inFlight time-weighted mean of the requests in flight
 */

/**
 * Reads the text of a `.doctor.jsonl` file. A line cut short (the process
 * died while it was written) is skipped.
 * @param {string} text
 * @returns {DoctorSample[]}
 */
export function parseSamples (text) {
  /** @type {DoctorSample[]} */
  const samples = []
  for (const line of text.split('\n')) {
    if (!line) continue
    try {
      const sample = JSON.parse(line)
      if (typeof sample.t === 'number' && typeof sample.dt === 'number') samples.push(sample)
    } catch {}
  }
  return samples.sort((a, b) => a.t - b.t)
}

/** @param {DoctorSample} sample */
export function gcMsOf (sample) {
  let ms = 0
  for (const [kind, value] of Object.entries(sample.gc ?? {})) if (kind !== 'max' && Array.isArray(value)) ms += value[1]
  return ms
}

/**
 * The GC time of each sample, at most its span, the pause time of the whole
 * series kept. A sample counts the pauses whose entries came in its interval:
 * a pause that began in the intervals before (the loop it stopped wrote no
 * line, or the agent's worker wrote a blocked one meanwhile) and several
 * pauses that sum to more than a short interval count there in full. What
 * is over a sample's span goes back to the samples before it, up to theirs,
 * as the pause did run before it was reported; what still remains (pauses of
 * several threads at once, say) goes forward, and what no span holds is left out.
 * @param {DoctorSample[]} samples in time order
 * @returns {number[]} ms, one per sample
 */
export function gcMsSpread (samples) {
  const ms = samples.map(gcMsOf)
  let over = 0
  for (let i = samples.length - 1; i >= 0; i--) {
    const room = Math.max(0, samples[i].dt)
    const want = ms[i] + over
    ms[i] = Math.min(want, room)
    over = want - ms[i]
  }
  for (let i = 0; i < samples.length && over > 0; i++) {
    const take = Math.min(over, Math.max(0, samples[i].dt) - ms[i])
    ms[i] += take
    over -= take
  }
  return ms
}

/**
 * Each sample's GC time, spread (see gcMsSpread).
 * @param {DoctorSample[]} samples in time order
 * @returns {(sample: DoctorSample) => number}
 */
export function gcMsBySample (samples) {
  const spread = gcMsSpread(samples)
  const bySample = new Map(samples.map((s, i) => [s, spread[i]]))
  return (sample) => bySample.get(sample) ?? gcMsOf(sample)
}

/**
 * The window under load: the one dyno knows when it ran the load or the
 * --on-port command; otherwise from the first to the last second in which
 * the app finished requests; otherwise (no requests: not a server) the whole run.
 * @param {DoctorSample[]} samples
 * @param {{ startMs: number, endMs: number } | null} known
 * @param {'load' | 'on-port' | null} driver
 * @returns {LoadWindow | null} null when there are no samples
 */
export function findWindow (samples, known, driver) {
  if (samples.length === 0) return null
  if (known && driver) return { startMs: known.startMs, endMs: known.endMs, source: driver }
  const serving = samples.filter((s) => s.http && s.http.finished > 0)
  if (serving.length > 0) {
    const first = serving[0]
    const last = /** @type {DoctorSample} */ (samples.at(-1))
    // A loop stuck since its last request: the stuck time counts too.
    const endMs = last.blocked ? last.t : /** @type {DoctorSample} */ (serving.at(-1)).t
    return { startMs: first.t - first.dt, endMs, source: 'requests' }
  }
  const first = samples[0]
  return { startMs: first.t - first.dt, endMs: /** @type {DoctorSample} */ (samples.at(-1)).t, source: 'run' }
}

/**
 * The samples taken within the window.
 * @param {DoctorSample[]} samples @param {{ startMs: number, endMs: number }} window
 */
export function samplesIn (samples, window) {
  return samples.filter((s) => s.t > window.startMs && s.t <= window.endMs)
}

/**
 * The window's seconds, each with its figures.
 * @param {DoctorSample[]} samples in time order
 * @param {{ startMs: number, endMs: number }} window
 * @param {number} heldTurnMs how long a turn must be to count as holding the loop
 * @returns {Second[]}
 */
export function secondsOf (samples, window, heldTurnMs) {
  /** @type {DoctorSample[][]} */
  const buckets = []
  const gcOf = gcMsBySample(samples)
  for (const sample of samplesIn(samples, window)) {
    const index = Math.floor((sample.t - window.startMs - 1e-9) / 1000)
    ;(buckets[index] ??= []).push(sample)
  }
  /** @type {Second[]} */
  const seconds = []
  for (let i = 0; i < buckets.length; i++) {
    if (buckets[i]) seconds.push(secondOf(window.startMs + i * 1000, buckets[i], heldTurnMs, gcOf))
  }
  return seconds
}

/**
 * @param {number} t
 * @param {DoctorSample[]} samples
 * @param {number} heldTurnMs
 * @param {(sample: DoctorSample) => number} gcOf its GC time, spread
 * @returns {Second}
 */
function secondOf (t, samples, heldTurnMs, gcOf) {
  let span = 0
  let busy = 0
  let cpu = 0
  let gcMs = 0
  let gcMaxMs = 0
  let heldMs = 0
  let codeHeldMs = 0
  let started = 0
  let finished = 0
  let inFlight = 0
  let httpSpan = 0
  /** @type {Record<string, number>} */
  const gcPauses = {}
  /** @type {number[]} */
  const delays = []
  const mem = { heapUsedMin: Infinity, heapUsedMax: -Infinity, heapTotal: -Infinity, rss: Infinity, rssOutsideHeap: Infinity, external: Infinity, externalMax: -Infinity }
  for (const s of samples) {
    span += s.dt
    busy += s.elu * s.dt
    cpu += s.cpu.user + s.cpu.system
    const gc = gcOf(s)
    gcMs += gc
    gcMaxMs = Math.max(gcMaxMs, typeof s.gc?.max === 'number' ? s.gc.max : 0)
    for (const [kind, value] of Object.entries(s.gc ?? {})) if (Array.isArray(value)) gcPauses[kind] = (gcPauses[kind] ?? 0) + value[0]
    const delay = s.delay?.max ?? 0
    delays.push(delay)
    if (delay >= heldTurnMs) {
      const held = Math.min(s.dt, delay)
      heldMs += held
      codeHeldMs += Math.max(0, held - gc)
    }
    if (s.http) {
      started += s.http.started
      finished += s.http.finished
      inFlight += s.http.inFlight * s.dt
      httpSpan += s.dt
    }
    const m = s.mem ?? {}
    if (m.heapUsed !== undefined) {
      mem.heapUsedMin = Math.min(mem.heapUsedMin, m.heapUsed)
      mem.heapUsedMax = Math.max(mem.heapUsedMax, m.heapUsed)
    }
    if (m.heapTotal !== undefined) mem.heapTotal = Math.max(mem.heapTotal, m.heapTotal)
    if (m.rss !== undefined) mem.rss = Math.min(mem.rss, m.rss)
    if (m.rss !== undefined && m.heapTotal !== undefined) mem.rssOutsideHeap = Math.min(mem.rssOutsideHeap, m.rss - m.heapTotal)
    // process.memoryUsage() counts array buffers within external already.
    if (m.external !== undefined) {
      mem.external = Math.min(mem.external, m.external)
      mem.externalMax = Math.max(mem.externalMax, m.external)
    }
  }
  const finite = (/** @type {number} */ n) => Number.isFinite(n) ? n : null
  return {
    t,
    span,
    delayP99: percentile(delays.sort((a, b) => a - b), 99),
    delayMax: Math.max(0, ...delays),
    heldMs,
    codeHeldMs,
    elu: span > 0 ? busy / span : 0,
    cpu: span > 0 ? cpu / span : 0,
    gcMs,
    gcMaxMs,
    gcPauses,
    heapUsedMin: finite(mem.heapUsedMin),
    heapUsedMax: finite(mem.heapUsedMax),
    heapTotal: finite(mem.heapTotal),
    rss: finite(mem.rss),
    rssOutsideHeap: finite(mem.rssOutsideHeap),
    external: finite(mem.external),
    externalMax: finite(mem.externalMax),
    started,
    finished,
    inFlight: httpSpan > 0 ? inFlight / httpSpan : 0
  }
}
