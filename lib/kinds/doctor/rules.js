import { median, sum } from '../../stats/describe.js'
/**
 * The rules that make a diagnosis of the seconds under load, each with the
 * thresholds the README documents. Pure functions.
 */
import { MB, bytes } from '../../format.js'

/** Every threshold a rule uses; the README lists them. */
export const THRESHOLDS = {
  /** A loop turn this long (ms) or longer holds the loop: requests arriving meanwhile wait. */
  heldTurnMs: 20,
  /** event-loop-blocked: share of a second spent in such turns, GC pauses aside, for the second to count. */
  blockedShare: 0.5,
  /** event-loop-blocked: share of the seconds under load that must count. */
  blockedSeconds: 0.5,
  /** gc-pressure: share of the time under load spent in GC pauses. */
  gcShare: 0.15,
  /** gc-pressure: a single pause this long (ms) is enough. */
  gcPauseMs: 250,
  /** memory-growth: the least time under load (s) to judge growth at all. */
  growthMinSeconds: 4,
  /** memory-growth: share of the load left out at its start, as warm-up. */
  growthWarmUp: 0.2,
  /** memory-growth: rise of the heap used after GC, in bytes and as a share of where it started. */
  heapGrowthBytes: 3 * MB,
  heapGrowthShare: 0.1,
  /** memory-growth: the same for external memory (array buffers included). */
  externalGrowthBytes: 3 * MB,
  externalGrowthShare: 0.1,
  /**
   * memory-growth, heap and external: the rise must also pass this share of how much the signal swings
   * within a second (the median second): an app whose requests each hold tens of MB for a while swings
   * that much without growing.
   */
  growthSwing: 0.5,
  /**
   * memory-growth, heap and external: the highs must rise as far as the lows must, and by this share of
   * how far the lows rose. Garbage that no full GC has reclaimed yet lifts the lows towards highs that
   * stay put; what the app keeps lifts both.
   */
  growthHighs: 0.5,
  /**
   * memory-growth: the same for rss outside the V8 heap (native memory, code). Far higher: under GC
   * pressure the pages V8 freed stay resident for a while: rss outside the heap doubled on its own in a 5 s run.
   */
  rssGrowthBytes: 256 * MB,
  rssGrowthShare: 0.5,
  /** io-wait: median latency (ms) at or above this… */
  ioLatencyMs: 20,
  /** …while loop utilization and CPU (1 = one core) both stay at or below these. */
  ioMaxElu: 0.5,
  ioMaxCpu: 0.5,
  /** A second whose samples cover less than this (ms) is left out of the counts. */
  minSecondSpanMs: 500
}

/**
 * @typedef {'event-loop-blocked' | 'gc-pressure' | 'memory-growth' | 'io-wait' | 'healthy'} DiagnosisKind
 *
 * @typedef {object} Finding what a rule found, before the next command is added
 * @property {DiagnosisKind} kind
 * @property {string} title
 * @property {string} evidence the figures that made it hold
 * @property {string} unless what would have made it not hold, to be read after "it would not hold if"
 * @property {Record<string, number | string | null>} figures the numbers of the evidence, for machines
 *
 * @typedef {object} RuleInput
 * @property {import('./series.js').Second[]} seconds the seconds under load, all of them
 * @property {import('./series.js').Second[]} full those covered well enough to count
 * @property {import('./summary.js').DoctorSummary} summary
 * @property {import('./analyze.js').FullGcs} fullGcs the full GCs dyno had the app run around the load
 * @property {string} under 'under load', or 'while it ran' when nothing loaded the app
 */

const pct = (/** @type {number} */ share) => `${Math.round(share * 100)}%`
const ms = (/** @type {number} */ n) => `${n >= 100 ? Math.round(n) : Number(n.toFixed(1))} ms`
const count = (/** @type {number} */ n) => Math.round(n).toLocaleString('en-US')

/** @param {RuleInput} input @returns {Finding | null} */
export function eventLoopBlocked ({ full, summary, under }) {
  const T = THRESHOLDS
  const blocked = full.filter((s) => s.codeHeldMs / s.span >= T.blockedShare)
  if (blocked.length === 0 || blocked.length < T.blockedSeconds * full.length) return null
  const held = sum(full.map((s) => s.codeHeldMs)) / sum(full.map((s) => s.span))
  const parts = [
    `event-loop delay p99 ${ms(summary.delay.p99)} (longest ${ms(summary.delay.max)}) in ${blocked.length} of ${full.length} seconds ${under}`,
    `turns of ${T.heldTurnMs} ms or longer held the loop ${pct(held)} of the time, GC aside`,
    `loop busy ${pct(summary.elu)}, CPU ${pct(summary.cpu.mean)}`
  ]
  if (summary.http.loopMsPerRequest !== null) parts.push(`each request held the loop ${ms(summary.http.loopMsPerRequest)}`)
  if (summary.load) parts.push(summary.load.latencyP99 === null ? 'the load got no answer' : `the load waited ${ms(summary.load.latencyP99)} at p99`)
  return {
    kind: 'event-loop-blocked',
    title: 'Synchronous work holds the event loop',
    evidence: parts.join('; '),
    unless: `fewer than ${pct(T.blockedSeconds)} of the seconds ${under} had turns of ${T.heldTurnMs} ms or longer (GC pauses aside) filling ${pct(T.blockedShare)} of their time`,
    figures: { delayP99Ms: summary.delay.p99, delayMaxMs: summary.delay.max, blockedSeconds: blocked.length, seconds: full.length, heldShare: held, elu: summary.elu, cpu: summary.cpu.mean }
  }
}

/** @param {RuleInput} input @returns {Finding | null} */
export function gcPressure ({ full, summary, under }) {
  const T = THRESHOLDS
  const gc = summary.gc
  if (gc.share < T.gcShare && gc.maxPauseMs < T.gcPauseMs) return null
  const busySeconds = full.filter((s) => s.gcMs / s.span >= T.gcShare).length
  const pauses = Object.entries(gc.pauses).map(([kind, n]) => `${n} ${kind}`).join(', ')
  return {
    kind: 'gc-pressure',
    title: 'Garbage collection takes a large share of the time',
    evidence: `GC took ${pct(gc.share)} of the time ${under} (${pct(T.gcShare)} or more in ${busySeconds} of ${full.length} seconds); longest pause ${ms(gc.maxPauseMs)}; ${pauses || 'no pauses'}`,
    unless: `GC had taken less than ${pct(T.gcShare)} of the time ${under}, with no pause of ${T.gcPauseMs} ms or more`,
    figures: { gcShare: gc.share, gcMaxPauseMs: gc.maxPauseMs, seconds: full.length, gcSeconds: busySeconds }
  }
}

/**
 * A memory signal, read per second.
 * @typedef {object} MemorySignal
 * @property {string} what
 * @property {(s: import('./series.js').Second) => number | null} low
 * @property {((s: import('./series.js').Second) => number | null) | null} high null: no swing nor highs to weigh
 * @property {number} minBytes
 * @property {number} minShare
 * @property {((gc: import('./analyze.js').FullGc) => number) | null} afterFullGc its reading in a full GC dyno had the app
 *   run. Null for memory the GC does not free; for the rest, a rise counts only once a full GC has left it standing.
 */

/** @type {MemorySignal[]} */
const MEMORY_SIGNALS = [
  { what: 'heap used after GC', low: (s) => s.heapUsedMin, high: (s) => s.heapUsedMax, minBytes: THRESHOLDS.heapGrowthBytes, minShare: THRESHOLDS.heapGrowthShare, afterFullGc: (gc) => gc.heapUsed },
  { what: 'external memory', low: (s) => s.external, high: (s) => s.externalMax, minBytes: THRESHOLDS.externalGrowthBytes, minShare: THRESHOLDS.externalGrowthShare, afterFullGc: (gc) => gc.external },
  // rss follows the heap as V8 grows it under pressure; what rss holds besides the heap is what may leak.
  { what: 'rss outside the V8 heap', low: (s) => s.rssOutsideHeap, high: null, minBytes: THRESHOLDS.rssGrowthBytes, minShare: THRESHOLDS.rssGrowthShare, afterFullGc: null }
]

/** @param {RuleInput} input @returns {Finding | null} */
export function memoryGrowth ({ full, fullGcs, under }) {
  const T = THRESHOLDS
  if (full.length < T.growthMinSeconds) return null
  const kept = full.slice(Math.max(1, Math.round(full.length * T.growthWarmUp)))
  const grew = MEMORY_SIGNALS.map((signal) => growth(kept, signal, fullGcs)).filter((g) => g !== null)
  if (grew.length === 0) return null
  const first = /** @type {NonNullable<ReturnType<typeof growth>>} */ (grew[0])
  return {
    kind: 'memory-growth',
    title: 'Memory keeps growing',
    evidence: grew.map((g) => `${g.what} rose from ${bytes(g.from)} to ${bytes(g.to)} over ${g.seconds} s ${under} (${bytes(g.perMinute)} a minute), was still rising at the end${g.left ? `, and ${leftWords(g.left)}` : ''}`).join('; '),
    unless: `leaving out the first ${pct(T.growthWarmUp)} of the time as warm-up, the lowest reading of the last third had been less than ${bytes(T.heapGrowthBytes)} or ${pct(T.heapGrowthShare)} above the highest low of the first third; for the heap and external memory, also less than ${pct(T.growthSwing)} of their swing within a second, or their highs had risen by less than that or than ${pct(T.growthHighs)} of their lows' rise, or the full GC after the load had left them less than ${bytes(T.heapGrowthBytes)} or ${pct(T.heapGrowthShare)} above the one before it (without those, V8's last full GC after the first third, above the first third's highest low); for rss outside the V8 heap, ${bytes(T.rssGrowthBytes)} or ${pct(T.rssGrowthShare)}; or the app had been loaded for less than ${T.growthMinSeconds} s`,
    figures: { signal: first.what, fromBytes: first.from, toBytes: first.to, bytesPerMinute: first.perMinute, seconds: first.seconds, afterFullGcBytes: first.left?.bytes ?? null }
  }
}

/**
 * A signal that keeps rising: the lowest of its last third of seconds is
 * above every low of its first third, by enough, and so are its highs.
 * Between full GCs the lows climb on garbage alone, towards highs that stay
 * put; what the app keeps lifts both. For memory only the GC frees, a full
 * GC after the first third (dyno's after the load, else V8's last) must also
 * have left the signal above where it started, and above the first third's
 * highest low.
 * @param {import('./series.js').Second[]} seconds after the warm-up
 * @param {MemorySignal} signal
 * @param {import('./analyze.js').FullGcs} fullGcs the full GCs dyno had the app run around the load
 */
function growth (seconds, { what, low, high, minBytes, minShare, afterFullGc }, fullGcs) {
  const points = seconds.filter((s) => low(s) !== null)
  if (points.length < 3) return null
  const lowOf = (/** @type {import('./series.js').Second} */ s) => /** @type {number} */ (low(s))
  const third = Math.max(1, Math.floor(points.length / 3))
  const head = points.slice(0, third)
  const tail = points.slice(-third)
  const from = Math.max(...head.map(lowOf))
  const to = Math.min(...tail.map(lowOf))
  const need = Math.max(minBytes, minShare * from)
  const highOf = (/** @type {import('./series.js').Second} */ s) => high?.(s) ?? lowOf(s)
  const rise = Math.max(need, THRESHOLDS.growthSwing * median(points.map((s) => highOf(s) - lowOf(s))))
  if (to - from < rise) return null
  if (high && Math.max(...tail.map(highOf)) - Math.max(...head.map(highOf)) < Math.max(rise, THRESHOLDS.growthHighs * (to - from))) return null
  const left = afterFullGc ? leftByFullGc(points.slice(third), lowOf, afterFullGc, fullGcs, from) : null
  if (afterFullGc && (!left || left.bytes - left.since < Math.max(minBytes, minShare * left.since))) return null
  // What the app still holds must also be above what it held early in the load: a pool whose
  // connections each keep their last result filled once, in the first seconds, and grew no more.
  if (left && left.bytes - from < Math.max(minBytes, minShare * from)) return null
  const minutes = (/** @type {{ t: number }} */ (tail.at(-1)).t - head[0].t) / 60_000
  return { what, from, to, left, seconds: points.length, perMinute: minutes > 0 ? (to - from) / minutes : 0 }
}

/**
 * What a full GC left of a signal, and what it is to be above: the one dyno
 * had the app run after the load, against the one before it; or else the
 * second of the last one V8 ran on its own (its lowest reading), against the
 * first third's highest low.
 * @param {import('./series.js').Second[]} seconds after the first third
 * @param {(s: import('./series.js').Second) => number} lowOf
 * @param {(gc: import('./analyze.js').FullGc) => number} read
 * @param {import('./analyze.js').FullGcs} fullGcs
 * @param {number} from the first third's highest low
 * @returns {{ bytes: number, since: number, by: 'after-load' | 'before-and-after-load' | 'v8' } | null}
 */
function leftByFullGc (seconds, lowOf, read, { before, after }, from) {
  if (after) return before ? { bytes: read(after), since: read(before), by: 'before-and-after-load' } : { bytes: read(after), since: from, by: 'after-load' }
  const last = seconds.filter((s) => (s.gcPauses.markCompact ?? 0) > 0).at(-1)
  return last ? { bytes: lowOf(last), since: from, by: 'v8' } : null
}

/** @param {NonNullable<ReturnType<typeof leftByFullGc>>} left */
function leftWords (left) {
  if (left.by === 'v8') return `it stayed at ${bytes(left.bytes)} or more through the last full GC`
  const before = left.by === 'before-and-after-load' ? ` (${bytes(left.since)} in one before it)` : ''
  return `a full GC after the load left ${bytes(left.bytes)}${before}`
}

/** @param {RuleInput} input @returns {Finding | null} */
export function ioWait ({ summary, under }) {
  const T = THRESHOLDS
  const latency = summary.load ? summary.load.latencyP50 : summary.http.serverLatencyMs
  if (latency === null || summary.http.finished === 0) return null
  if (latency < T.ioLatencyMs || summary.elu > T.ioMaxElu || summary.cpu.mean > T.ioMaxCpu) return null
  const source = summary.load ? 'as the load measured it' : 'as the app\'s own request counts give it'
  return {
    kind: 'io-wait',
    title: 'Requests wait on something outside the process',
    evidence: `requests took ${ms(latency)} at the median (${source}) while the event loop was busy ${pct(summary.elu)} of the time and the process used ${pct(summary.cpu.mean)} of a CPU; ${summary.http.inFlight.toFixed(1)} requests in flight on average`,
    unless: `requests had taken less than ${T.ioLatencyMs} ms at the median, or the event loop had been busy more than ${pct(T.ioMaxElu)} of the time, or the CPU more than ${pct(T.ioMaxCpu)} of a core`,
    figures: { latencyMs: latency, elu: summary.elu, cpu: summary.cpu.mean, inFlight: summary.http.inFlight }
  }
}

/** @param {RuleInput} input @returns {Finding} */
export function healthy ({ summary, under }) {
  const T = THRESHOLDS
  const parts = [
    `event-loop delay p99 ${ms(summary.delay.p99)}`,
    `loop busy ${pct(summary.elu)}`,
    `CPU ${pct(summary.cpu.mean)}`,
    `GC ${pct(summary.gc.share)} of the time`
  ]
  if (summary.memory.heapUsed) parts.push(`heap after GC ${bytes(summary.memory.heapUsed.start)} at the start and ${bytes(summary.memory.heapUsed.end)} at the end`)
  if (summary.http.finished > 0) parts.push(`${count(summary.http.perSecond)} requests a second`)
  if (summary.load && summary.load.latencyP50 !== null && summary.load.latencyP99 !== null) parts.push(`latency p50 ${ms(summary.load.latencyP50)}, p99 ${ms(summary.load.latencyP99)}`)
  let evidence = parts.join('; ')
  if (summary.elu >= 0.8 || summary.cpu.mean >= 0.8) {
    evidence += `. The CPU was busy, and that is fine: the loop turned within ${ms(summary.delay.p99)} (p99), so no request waited long behind another`
  }
  return {
    kind: 'healthy',
    title: 'Healthy: no problem found',
    evidence,
    unless: `another rule had held: turns of ${T.heldTurnMs} ms or more filling ${pct(T.blockedShare)} of most seconds, GC taking ${pct(T.gcShare)} of the time or pausing ${T.gcPauseMs} ms, memory that keeps rising, or requests waiting ${T.ioLatencyMs} ms on an idle process`,
    figures: { delayP99Ms: summary.delay.p99, elu: summary.elu, cpu: summary.cpu.mean, gcShare: summary.gc.share }
  }
}

/** The rules in the order their diagnoses are listed. */
export const RULES = [eventLoopBlocked, gcPressure, memoryGrowth, ioWait]
