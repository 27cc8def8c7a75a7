import { siteLocation } from './analyze.js'
import { opKind } from './data.js'

/** The version of async.json and of `dyno async --json`. */
export const ASYNC_SCHEMA_VERSION = 1

/**
 * The result for machines (`async.json`, `dyno async --json`): the findings
 * with their locations and times, the requests, and the critical paths.
 * @param {import('./analyze.js').AsyncAnalysis} analysis
 */
export function asyncResult (analysis) {
  const sites = new Map(analysis.sites.map((s) => [s.id, s]))
  const place = (/** @type {number} */ site) => {
    const { file, line, column, fn } = siteLocation(sites.get(site))
    return { file, line, column, function: fn }
  }
  const path = (/** @type {import('./analyze.js').RequestView | null} */ view) => view && {
    method: view.method,
    path: view.path,
    status: view.status,
    how: view.how,
    durationMs: ms(view.durationMs),
    criticalPath: view.steps.map((s) => ({ kind: opKind(s.type), type: s.type, startMs: ms(s.start), endMs: ms(s.end), madeAt: place(s.site), awaitedAt: s.awaitedAt >= 0 ? place(s.awaitedAt) : null, waitedOn: s.waitedOn }))
  }
  return {
    schemaVersion: ASYNC_SCHEMA_VERSION,
    requests: {
      received: analysis.counts.requests,
      traced: analysis.traced.total,
      finished: analysis.traced.finished,
      open: analysis.traced.open,
      aborted: analysis.traced.aborted,
      sample: analysis.counts.sample,
      perSecond: analysis.counts.perSecond,
      tooFew: analysis.tooFew
    },
    latency: analysis.latency && { medianMs: ms(analysis.latency.medianMs), maxMs: ms(analysis.latency.maxMs) },
    findings: analysis.findings.map((f) => ({
      kind: f.kind,
      location: { file: f.location.file, line: f.location.line, column: f.location.column, function: f.location.fn },
      perRequestMs: ms(f.perRequestMs),
      savingMs: ms(f.savingMs),
      requests: f.requests,
      detail: roundAll(f.detail)
    })),
    typical: path(analysis.typical),
    slowest: path(analysis.slowest)
  }
}

/** @param {number} value */
function ms (value) {
  return Math.round(value * 100) / 100
}

/**
 * Every number in a finding's detail rounded to ms / 100.
 * @param {any} value
 * @returns {any}
 */
function roundAll (value) {
  if (typeof value === 'number') return ms(value)
  if (Array.isArray(value)) return value.map(roundAll)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k === 'fn' ? 'function' : k, roundAll(v)]))
  return value
}
