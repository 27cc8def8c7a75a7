import { SCHEMA_VERSION, mergedLatency, round, sampleStats } from '../../load/summary.js'
import { sum } from '../../stats/describe.js'

/**
 * Many generators' results as the one result of the load they made
 * together. Latency histograms add up exactly (HdrHistogram), so the merged
 * percentiles are those of one histogram of every request; counts, errors
 * and status codes add up; per-second series add up second by second on the
 * wall clock. Pure: the files are read elsewhere.
 *
 * @typedef {import('../../load/summary.js').LoadResult} LoadResult
 *
 * @typedef {object} Part one generator's result, and where it came from
 * @property {string} name the file it was read from
 * @property {LoadResult} result
 * @property {import('hdr-histogram-js').Histogram} [histogram] its latency histogram, decoded already
 *
 * @typedef {object} GeneratorLine what the merge says of each generator
 * @property {string} name
 * @property {string} segment `i/n`
 * @property {string} host
 * @property {string} startedAt
 * @property {number} startOffsetMs after the earliest start
 * @property {number} duration seconds
 * @property {number} completed
 * @property {number} rps
 * @property {number} p99 ms
 * @property {number} errors
 * @property {number} cpu share of its load threads' time on the CPU
 * @property {boolean} saturated its CPU set the pace
 *
 * @typedef {LoadResult & { generators: GeneratorLine[], warnings: string[] }} MergedResult
 */

/** A generator whose load threads were on the CPU this much of the time measured itself, not the server. */
export const SATURATED_CPU = 0.9
/** Starts (or clocks) further apart than this make the per-second series and the rate approximate. */
export const START_SPREAD_MS = 1000

/**
 * The settings every part must share to be parts of one load: a difference
 * here is a mistake (exit 2), not a warning.
 * @param {LoadResult} r
 */
function identity (r) {
  return { url: r.url, method: r.method }
}

/**
 * The settings the parts should share; a difference is said, not refused
 * (a generator started with another -d still made part of the load).
 * @param {LoadResult} r
 */
function settings (r) {
  return {
    model: r.model,
    connections: r.connections,
    pipelining: r.pipelining,
    rate: r.rate,
    duration: r.plan.duration,
    amount: r.plan.amount,
    timeout: r.plan.timeout
  }
}

/**
 * The first part that loaded another URL or with another method than the
 * first part did, or null: parts of one load share both.
 * @param {Part[]} parts
 */
export function notOneLoad (parts) {
  const first = identity(parts[0].result)
  for (const part of parts.slice(1)) {
    const own = identity(part.result)
    if (own.url !== first.url) return { differs: /** @type {const} */ ('url'), values: { name: part.name, url: own.url, first: parts[0].name, firstUrl: first.url } }
    if (own.method !== first.method) return { differs: /** @type {const} */ ('method'), values: { name: part.name, method: own.method, first: parts[0].name, firstMethod: first.method } }
  }
  return null
}

/**
 * @param {Part[]} parts at least one, all of one load (see notOneLoad)
 * @returns {MergedResult}
 */
export function mergeResults (parts) {
  const results = parts.map((p) => p.result)
  const startOf = (/** @type {LoadResult} */ r) => Date.parse(r.startedAt)
  const start = Math.min(...results.map(startOf))
  const end = Math.max(...results.map((r) => startOf(r) + r.duration * 1000))
  const seconds = (end - start) / 1000

  const completed = sum(results.map((r) => r.requests.completed))
  const bytes = sum(results.map((r) => r.bytes.total))
  /** @type {Record<string, number>} */
  const statusCodes = {}
  for (const r of results) for (const [code, n] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n
  const errors = /** @type {LoadResult['errors']} */ ({ total: 0 })
  for (const r of results) for (const [kind, n] of Object.entries(r.errors)) errors[/** @type {keyof LoadResult['errors']} */ (kind)] = (errors[/** @type {keyof LoadResult['errors']} */ (kind)] ?? 0) + n

  const first = results[0]
  const streamLimit = Math.min(...results.map((r) => r.streamLimit ?? Infinity))
  /** @type {MergedResult} */
  const merged = {
    schemaVersion: SCHEMA_VERSION,
    url: first.url,
    method: first.method,
    model: first.model,
    // Results of a dyno before HTTP/2 and unix sockets lack these.
    socket: first.socket ?? null,
    protocol: first.protocol ?? 'HTTP/1.1',
    connections: first.connections,
    pipelining: first.pipelining,
    streams: first.streams ?? null,
    streamLimit: Number.isFinite(streamLimit) ? streamLimit : null,
    workers: sum(results.map((r) => r.workers)),
    rate: first.rate,
    startedAt: new Date(start).toISOString(),
    duration: round(seconds, 3),
    interrupted: results.some((r) => r.interrupted),
    requests: {
      sent: sum(results.map((r) => r.requests.sent)),
      completed,
      pending: sum(results.map((r) => r.requests.pending)),
      average: seconds > 0 ? round(completed / seconds, 2) : 0,
      perSecond: sampleStats(onWallClock(results, start, (r) => r.requests.perSecond.samples)),
      dropped: sum(results.map((r) => r.requests.dropped))
    },
    bytes: {
      total: bytes,
      average: seconds > 0 ? round(bytes / seconds, 0) : 0,
      perSecond: sampleStats(onWallClock(results, start, (r) => r.bytes.perSecond.samples))
    },
    latency: mergedLatency(results, parts.map((p) => p.histogram)),
    statusCodes,
    non2xx: sum(results.map((r) => r.non2xx)),
    errors,
    peakConnections: sum(results.map((r) => r.peakConnections)),
    targetRefusing: results.some((r) => r.targetRefusing),
    failure: results.find((r) => r.failure)?.failure ?? null,
    plan: first.plan,
    serverClock: null,
    segment: { index: 0, count: 1, connections: first.connections, amount: first.plan.amount, rate: first.rate },
    startAt: first.startAt,
    generator: { host: [...new Set(results.map((r) => r.generator.host))].join(', '), pid: 0, threads: sum(results.map((r) => r.generator.threads)), cpu: Math.max(...results.map((r) => r.generator.cpu)), rawWrite: allOf(results.map((r) => r.generator.rawWrite)) },
    generators: parts.map((p) => generatorLine(p, start)),
    warnings: partWarnings(parts, start)
  }
  return merged
}

/**
 * Per-second samples added up on the wall clock: a generator's second k
 * runs from its start plus k seconds, and counts in the merged second it
 * overlaps most.
 * @param {LoadResult[]} results
 * @param {number} start the earliest start, epoch ms
 * @param {(r: LoadResult) => number[]} samplesOf
 */
function onWallClock (results, start, samplesOf) {
  /** @type {number[]} */
  const merged = []
  for (const r of results) {
    const shift = Math.round((Date.parse(r.startedAt) - start) / 1000)
    samplesOf(r).forEach((n, k) => { merged[shift + k] = (merged[shift + k] ?? 0) + n })
  }
  return Array.from(merged, (n) => n ?? 0)
}

/** @param {Part} part @param {number} start */
function generatorLine ({ name, result: r }, start) {
  return {
    name,
    segment: `${r.segment.index}/${r.segment.count}`,
    host: r.generator.host,
    startedAt: r.startedAt,
    startOffsetMs: Date.parse(r.startedAt) - start,
    duration: r.duration,
    completed: r.requests.completed,
    rps: r.requests.average,
    p99: r.latency.percentiles['99'],
    errors: r.errors.total,
    cpu: r.generator.cpu,
    saturated: r.generator.cpu >= SATURATED_CPU
  }
}

/**
 * What makes the merged figures less than exact, one line each: segments
 * missing, twice, or of other splits; other settings; starts apart; a
 * generator that was its own bottleneck.
 * @param {Part[]} parts
 * @param {number} start
 */
export function partWarnings (parts, start) {
  const warnings = []
  const counts = new Set(parts.map((p) => p.result.segment.count))
  if (counts.size > 1) {
    warnings.push(`the segments come from different splits (${[...counts].map((n) => `of ${n}`).join(', ')}): their shares do not add up to one load`)
  } else {
    const [count] = counts
    /** @type {Map<number, string[]>} */
    const seen = new Map()
    for (const p of parts) seen.set(p.result.segment.index, [...(seen.get(p.result.segment.index) ?? []), p.name])
    for (const [index, names] of seen) {
      if (names.length > 1) warnings.push(`segment ${index}/${count} is there ${names.length} times (${names.join(', ')}): its share of the load counts ${names.length} times`)
    }
    const missing = []
    for (let i = 0; i < count; i++) if (!seen.has(i)) missing.push(`${i}/${count}`)
    if (missing.length > 0) warnings.push(`segment${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing: the figures are those of ${count - missing.length} of ${count} shares of the load`)
  }
  const base = settings(parts[0].result)
  for (const p of parts.slice(1)) {
    const own = settings(p.result)
    const differ = /** @type {(keyof typeof own)[]} */ (Object.keys(own)).filter((k) => own[k] !== base[k])
    if (differ.length > 0) warnings.push(`${p.name} ran with other settings than ${parts[0].name} (${differ.map((k) => `${k} ${own[k]} against ${base[k]}`).join(', ')})`)
  }
  const spread = Math.max(...parts.map((p) => Date.parse(p.result.startedAt))) - start
  if (spread > START_SPREAD_MS) {
    warnings.push(`the generators started ${(spread / 1000).toFixed(1)} s apart (by their clocks): the per-second figures and the rate are approximate; start them together with --start-at`)
  }
  const apart = clocksApart(parts)
  if (apart) warnings.push(`the clocks of ${apart.a} and ${apart.b} are at least ${(apart.ms / 1000).toFixed(1)} s apart (as the server's Date headers tell): their start times do not compare, and --start-at started them at different instants; sync the generators' clocks (NTP)`)
  for (const p of parts) {
    const r = p.result
    if (r.startAt && Date.parse(r.startedAt) - Date.parse(r.startAt) > START_SPREAD_MS) {
      warnings.push(`${p.name} started ${((Date.parse(r.startedAt) - Date.parse(r.startAt)) / 1000).toFixed(1)} s after --start-at ${r.startAt}: give the generators more time to be scheduled`)
    }
    if (r.interrupted || r.failure) {
      warnings.push(`${p.name} ended early (${r.failure ? r.failure.message : 'stopped before its end'}): its share of the load is short`)
    }
    if (r.generator.cpu >= SATURATED_CPU) {
      warnings.push(`${p.name}'s load ${r.generator.threads > 1 ? 'threads were' : 'thread was'} on the CPU ${Math.round(r.generator.cpu * 100)}% of the time on ${r.generator.host}: that generator set the pace, so its figures measure it, not the server; use more generators or -w`)
    }
  }
  return warnings
}

/**
 * The two generators whose clocks are furthest apart, when by more than a
 * second: each bounds how far the server's clock is ahead of its own, so
 * two whose bounds are that far apart had clocks apart by at least as much.
 * @param {Part[]} parts
 */
export function clocksApart (parts) {
  /** @type {{ a: string, b: string, ms: number } | null} */
  let worst = null
  for (const a of parts) {
    for (const b of parts) {
      const ca = a.result.serverClock
      const cb = b.result.serverClock
      if (!ca || !cb) continue
      const ms = ca.low - cb.high
      if (ms > START_SPREAD_MS && (!worst || ms > worst.ms)) worst = { a: a.name, b: b.name, ms }
    }
  }
  return worst
}

/**
 * Whether every generator wrote raw: false when one did not, null when one's result does not say.
 * @param {(boolean | null)[]} flags
 */
function allOf (flags) {
  if (flags.includes(false)) return false
  return flags.includes(null) ? null : true
}
