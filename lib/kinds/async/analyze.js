import { criticalOps, kindOf, pathSteps, waterfall } from './path.js'
import { LIMIT, findFanOuts, findSequences } from './patterns.js'
import { RequestGraph } from './request.js'
import { UNNEEDED_MIN_CALLS, unneededAsyncCalls } from './unneeded.js'
import { mean } from '../../stats/describe.js'

/**
 * From what the async collector recorded to what dyno async says: the
 * findings (serial awaits, awaits in loops, unbounded fan-outs) with their
 * source locations, time per request and estimated saving; the critical
 * path and waterfall of the typical and the slowest request; and the
 * operations grouped by the site that made them.
 *
 * Times per request are averages over the traced requests that finished
 * (all traced requests when none did), counting a request without the
 * pattern as 0.
 *
 * @typedef {import('./data.js').AsyncData} AsyncData
 * @typedef {import('./data.js').AsyncSite} AsyncSite
 * @typedef {import('./data.js').TracedRequest} TracedRequest
 *
 * @typedef {'serial-awaits' | 'await-in-loop' | 'unbounded-fan-out' | 'unneeded-async'} FindingKind
 *
 * @typedef {object} Location
 * @property {string} file
 * @property {number} line
 * @property {number} column
 * @property {string} fn the function, '' when anonymous
 *
 * @typedef {object} AsyncFinding
 * @property {FindingKind} kind
 * @property {Location} location the line to change: the first of the serial awaits, the await in the loop, the line that awaits the fan-out
 * @property {number} perRequestMs what it costs a request
 * @property {number} savingMs what the change would save a request, estimated
 * @property {number} requests traced requests it was seen in
 * @property {SerialDetail | LoopDetail | FanOutDetail | UnneededDetail} detail
 *
 * @typedef {{ awaits: { location: Location, ms: number, waitedOn: string | null }[], sumMs: number, longestMs: number, callbacks: boolean }} SerialDetail
 *   waitedOn: the function of Node's or a library's that made what was awaited (`fetch`, `Pool.query`), when known;
 *   callbacks: callback-style waits, each started in the callback of the one before, not awaits
 * @typedef {{ count: number, eachMs: number, totalMs: number, allMs: number, limitedMs: number, limit: number, waitedOn: string | null, callbacks: boolean }} LoopDetail
 * @typedef {{ calls: number, eachUs: number, awaitsAtHand: boolean }} UnneededDetail calls a request, what one costs on
 *   this machine, and whether it awaits values already at hand (`await 0`) rather than nothing
 * @typedef {{ type: string, count: number, firstMs: number, lastMs: number, serviceMs: number, atOnce: number, spanMs: number, madeAt: Location, waitedOn: string | null }} FanOutDetail
 *
 * @typedef {object} RequestView a request's critical path and waterfall
 * @property {number} id
 * @property {string} method
 * @property {string} path
 * @property {number | null} status
 * @property {TracedRequest['how']} how
 * @property {number} durationMs
 * @property {number} ops operations traced
 * @property {import('./path.js').PathStep[]} steps
 * @property {import('./path.js').Bar[]} bars
 *
 * @typedef {object} CallSiteGroup operations made at one site, over the traced requests
 * @property {number} site
 * @property {string} kind await, promise, timer, fs, socket, …
 * @property {number} count
 * @property {number} requests in how many traced requests
 * @property {number} totalWaitMs from made to settled, summed
 * @property {number} meanWaitMs
 * @property {number} maxWaitMs
 * @property {number} unsettled made but never settled while traced
 *
 * @typedef {object} AsyncAnalysis
 * @property {import('./data.js').AsyncCounts} counts
 * @property {{ total: number, finished: number, open: number, aborted: number, analyzed: number }} traced
 * @property {boolean} tooFew fewer than MIN_JUDGED traced requests finished while the app finished more:
 *   no finding then says little
 * @property {{ medianMs: number, maxMs: number } | null} latency of the traced requests that finished
 * @property {AsyncFinding[]} findings by time per request, most first
 * @property {RequestView | null} typical the traced request of median latency
 * @property {RequestView | null} slowest
 * @property {CallSiteGroup[]} callSites by total wait, most first
 * @property {AsyncSite[]} sites every site the above refer to
 */

/** A finding that saves less than this per request is not worth a line. */
export const MIN_SAVING_MS = 1
/** Nor one that saves less than this share of the typical request. */
export const MIN_SAVING_SHARE = 0.02
/** Traced requests that must finish before "no finding" means something. */
export const MIN_JUDGED = 20
/** The most call-site groups kept. */
export const MAX_CALL_SITES = 200

/**
 * @typedef {object} AsyncAnalysisOptions
 * @property {import('./unneeded.js').AsyncStartTest} [isAsyncStart] reads the app's source: without it, no unneeded-async
 * @property {number} [asyncCallNs] what an unneeded async call and the await of it cost, measured on this machine
 */

/**
 * @param {AsyncData} data
 * @param {AsyncAnalysisOptions} [options]
 * @returns {AsyncAnalysis}
 */
export function analyzeAsync (data, options = {}) {
  const finished = data.requests.filter((r) => r.how === 'finished')
  const analyzed = finished.length > 0 ? finished : data.requests
  const durations = finished.map((r) => r.durationMs).sort((a, b) => a - b)
  const latency = durations.length > 0 ? { medianMs: durations[(durations.length - 1) >> 1], maxMs: durations[durations.length - 1] } : null

  const collector = new FindingCollector(data.sites)
  for (const request of analyzed) {
    const graph = new RequestGraph(request, data.sites)
    const { serial, loops } = findSequences(graph.chains(), graph)
    collector.add(request, serial, loops, findFanOuts(graph))
    if (options.isAsyncStart) {
      for (const [site, { calls, atHand }] of unneededAsyncCalls(graph, options.isAsyncStart)) {
        const ms = calls * (options.asyncCallNs ?? 0) / 1e6
        collector.count('unneeded-async', graph.placeOf(site), site, 0, request, ms, ms, { calls, atHand })
      }
    }
  }
  const minSaving = Math.max(MIN_SAVING_MS, (latency?.medianMs ?? 0) * MIN_SAVING_SHARE)
  // A promise too many costs little each time: a function is worth naming by how often it runs.
  const worth = (/** @type {AsyncFinding} */ f) => f.kind === 'unneeded-async' ? /** @type {UnneededDetail} */ (f.detail).calls >= UNNEEDED_MIN_CALLS : f.savingMs >= minSaving
  const findings = collector.findings(analyzed.length).filter(worth)
    .sort((a, b) => b.perRequestMs - a.perRequestMs)

  const typicalRequest = finished.find((r) => r.durationMs === latency?.medianMs) ?? null
  const slowestRequest = finished.length > 0
    ? finished.reduce((a, b) => (b.durationMs > a.durationMs ? b : a))
    : data.requests.reduce((/** @type {TracedRequest | null} */ a, b) => (!a || b.durationMs > a.durationMs ? b : a), null)
  const typical = typicalRequest && view(typicalRequest, data.sites)
  const slowest = slowestRequest && (slowestRequest === typicalRequest ? typical : view(slowestRequest, data.sites))
  const callSites = groupBySite(data.requests, data.sites)

  /** @type {Set<number>} */
  const used = new Set(collector.usedSites)
  for (const v of [typical, slowest]) {
    for (const bar of v?.bars ?? []) used.add(bar.site)
    for (const step of v?.steps ?? []) used.add(step.site).add(step.awaitedAt)
  }
  for (const group of callSites) used.add(group.site)
  return {
    counts: data.counts,
    traced: {
      total: data.requests.length,
      finished: finished.length,
      open: data.requests.filter((r) => r.how === 'open' || r.how === 'cut').length,
      aborted: data.requests.filter((r) => r.how === 'aborted').length,
      analyzed: analyzed.length
    },
    tooFew: finished.length < MIN_JUDGED && finished.length < data.counts.finished,
    latency,
    findings,
    typical,
    slowest,
    callSites,
    sites: [...used].flatMap((id) => data.sites.get(id) ?? []).sort((a, b) => a.id - b.id)
  }
}

/**
 * @param {TracedRequest} request
 * @param {Map<number, AsyncSite>} sites
 * @returns {RequestView}
 */
function view (request, sites) {
  const graph = new RequestGraph(request, sites)
  const path = criticalOps(graph)
  return {
    id: request.id,
    method: request.method,
    path: request.path,
    status: request.status,
    how: request.how,
    durationMs: request.durationMs,
    ops: request.ops.length + request.dropped,
    steps: pathSteps(graph, path),
    bars: waterfall(graph, new Set(path.map((op) => op.id)))
  }
}

/** Instances of each finding, by kind and place, summed over requests. */
class FindingCollector {
  /** @param {Map<number, AsyncSite>} sites */
  constructor (sites) {
    this.sites = sites
    /** @type {Map<string, { kind: FindingKind, site: number, frame: number, requests: Set<number>, costMs: number, savingMs: number, instances: any[] }>} */
    this.byKey = new Map()
    /** @type {Set<number>} */
    this.usedSites = new Set()
  }

  /**
   * @param {TracedRequest} request
   * @param {import('./patterns.js').SerialRun[]} serial
   * @param {import('./patterns.js').Loop[]} loops
   * @param {import('./patterns.js').FanOut[]} fanOuts
   */
  add (request, serial, loops, fanOuts) {
    for (const run of serial) this.count('serial-awaits', run.places.join(','), run.site, run.frames[0], request, run.sumMs, run.sumMs - run.longestMs, run)
    for (const loop of loops) this.count('await-in-loop', loop.place, loop.site, loop.frame, request, loop.totalMs, loop.totalMs - loop.allMs, loop)
    for (const fan of fanOuts) this.count('unbounded-fan-out', fan.place, fan.awaitedAt >= 0 ? fan.awaitedAt : fan.site, 0, request, fan.spanMs, fan.spanMs - fan.serviceMs, fan)
  }

  /**
   * @param {FindingKind} kind @param {string} place @param {number} site @param {number} frame
   * @param {TracedRequest} request @param {number} costMs @param {number} savingMs @param {any} instance
   */
  count (kind, place, site, frame, request, costMs, savingMs, instance) {
    const key = `${kind}:${place}`
    let entry = this.byKey.get(key)
    if (!entry) this.byKey.set(key, (entry = { kind, site, frame, requests: new Set(), costMs: 0, savingMs: 0, instances: [] }))
    entry.requests.add(request.id)
    entry.costMs += costMs
    entry.savingMs += savingMs
    entry.instances.push(instance)
  }

  /**
   * @param {number} requests how many requests the sums are over
   * @returns {AsyncFinding[]}
   */
  findings (requests) {
    return [...this.byKey.values()].map((entry) => {
      const { instances } = entry
      /** @type {AsyncFinding['detail']} */
      let detail
      if (entry.kind === 'serial-awaits') {
        const first = /** @type {import('./patterns.js').SerialRun} */ (instances[0])
        detail = {
          awaits: first.sites.map((site, i) => ({ location: this.location(site, first.frames[i]), ms: mean(instances.map((r) => r.waits[i])), waitedOn: first.waitedOn[i] ?? null })),
          sumMs: mean(instances.map((r) => r.sumMs)),
          longestMs: mean(instances.map((r) => r.longestMs)),
          callbacks: first.callbacks
        }
      } else if (entry.kind === 'unneeded-async') {
        const calls = instances.reduce((sum, i) => sum + i.calls, 0) / requests
        detail = { calls, eachUs: calls > 0 ? entry.costMs * 1000 / (calls * requests) : 0, awaitsAtHand: instances.some((i) => i.atHand) }
      } else if (entry.kind === 'await-in-loop') {
        const count = mean(instances.map((l) => l.count))
        const totalMs = mean(instances.map((l) => l.totalMs))
        detail = { count, eachMs: totalMs / count, totalMs, allMs: mean(instances.map((l) => l.allMs)), limitedMs: mean(instances.map((l) => l.limitedMs)), limit: LIMIT, waitedOn: instances[0].waitedOn ?? null, callbacks: instances[0].callbacks }
      } else {
        detail = {
          type: instances[0].type,
          count: mean(instances.map((f) => f.count)),
          firstMs: mean(instances.map((f) => f.waits[0])),
          lastMs: mean(instances.map((f) => f.waits[f.waits.length - 1])),
          serviceMs: mean(instances.map((f) => f.serviceMs)),
          atOnce: mean(instances.map((f) => f.atOnce)),
          spanMs: mean(instances.map((f) => f.spanMs)),
          madeAt: this.location(instances[0].site),
          waitedOn: instances[0].waitedOn ?? null
        }
      }
      return {
        kind: entry.kind,
        location: this.location(entry.site, entry.frame),
        perRequestMs: entry.costMs / requests,
        savingMs: entry.savingMs / requests,
        requests: entry.requests.size,
        detail
      }
    })
  }

  /** @param {number} site @param {number} [frame] which of its frames @returns {Location} */
  location (site, frame = 0) {
    this.usedSites.add(site)
    return siteLocation(this.sites.get(site), frame)
  }
}

/**
 * Where a site is, by its innermost frame, or another of its frames.
 * @param {AsyncSite | undefined} site
 * @param {number} [index]
 * @returns {Location}
 */
export function siteLocation (site, index = 0) {
  const frame = site?.frames[index] ?? site?.frames[0]
  return frame ? { file: frame.file, line: frame.line, column: frame.column, fn: frame.fn } : { file: '', line: 0, column: 0, fn: '' }
}

/**
 * @param {TracedRequest[]} requests
 * @param {Map<number, AsyncSite>} sites
 * @returns {CallSiteGroup[]}
 */
function groupBySite (requests, sites) {
  /** Groups by site and kind: one line may make a promise and await another. @type {Map<string, CallSiteGroup & { seenIn: number }>} */
  const groups = new Map()
  for (const request of requests) {
    const graph = new RequestGraph(request, sites)
    for (const op of request.ops) {
      if (op.site < 0 || (!graph.isWork(op) && !graph.isAppAwait(op))) continue
      const kind = kindOf(graph, op)
      const key = `${op.site}:${kind}`
      let group = groups.get(key)
      if (!group) {
        groups.set(key, (group = { site: op.site, kind, count: 0, requests: 0, totalWaitMs: 0, meanWaitMs: 0, maxWaitMs: 0, unsettled: 0, seenIn: -1 }))
      }
      group.count++
      if (group.seenIn !== request.id) {
        group.seenIn = request.id
        group.requests++
      }
      const end = graph.isAwait(op) ? op.before : graph.settled(op)
      if (end < 0) {
        group.unsettled++
        continue
      }
      const wait = end - op.created
      group.totalWaitMs += wait
      group.maxWaitMs = Math.max(group.maxWaitMs, wait)
    }
  }
  return [...groups.values()].map(({ seenIn, ...group }) => ({ ...group, meanWaitMs: group.count > group.unsettled ? group.totalWaitMs / (group.count - group.unsettled) : 0 }))
    .sort((a, b) => b.totalWaitMs - a.totalWaitMs)
    .slice(0, MAX_CALL_SITES)
}
