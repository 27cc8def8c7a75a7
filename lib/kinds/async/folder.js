import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { analyzeAsync, siteLocation } from './analyze.js'
import { opKind, parseAsyncData } from './data.js'
import { isAsyncFunctionStart } from './unneeded.js'
import { dynoError } from '../../errors.js'
import { renderAsyncHtml } from './html.js'
import { readMeta } from '../../run-folder.js'
import { loadSummary } from '../flame/folder.js'
import { readSource } from '../../commands/read-source.js'
import { renderAsyncSummary } from './terminal.js'

/** The version of async.json and of `dyno async --json`. */
export const ASYNC_SCHEMA_VERSION = 1

export const FILES = {
  data: 'async.jsonl',
  result: 'async.json',
  html: 'report.html'
}

/**
 * Renders everything derived from an async run folder's data: the analysis
 * as JSON and the HTML report. `dyno async` and `dyno report` both end here.
 * @param {string} folder
 */
export function renderFolder (folder) {
  const meta = readMeta(folder)
  let text = ''
  try {
    text = readFileSync(join(folder, FILES.data), 'utf8')
  } catch (err) {
    // No data: the app died before it handed any over, or took no request. The report says so.
    if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'ENOENT') throw dynoError('DYNO_BAD_RUN_FOLDER.unreadable', { path: join(folder, FILES.data), why: /** @type {Error} */ (err).message })
  }
  const asyncCallNs = typeof meta.options?.asyncCallNs === 'number' ? meta.options.asyncCallNs : undefined
  const analysis = analyzeAsync(parseAsyncData(text), { isAsyncStart: asyncStartReader(), asyncCallNs })
  const result = asyncResult(analysis)
  writeFileSync(join(folder, FILES.result), JSON.stringify(result, null, 2) + '\n')
  writeFileSync(join(folder, FILES.html), renderAsyncHtml({
    meta: {
      title: meta.title ?? 'dyno async',
      startedAt: meta.startedAt,
      finishedAt: meta.finishedAt ?? null,
      node: meta.node ?? null,
      cwd: meta.cwd ?? folder,
      exit: meta.end ? { how: meta.end.how, code: meta.end.code ?? null, signal: meta.end.signal ?? null } : null,
      load: meta.load ? loadSummary(meta.load) : null
    },
    analysis,
    sources: readSources(analysis)
  }))
  return { analysis, result, meta, html: join(folder, FILES.html) }
}

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

/**
 * Whether a place of the app's source is the start of an async function,
 * the files read once each.
 * @returns {import('./unneeded.js').AsyncStartTest}
 */
function asyncStartReader () {
  /** @type {Map<string, string[] | null>} */
  const files = new Map()
  return (file, line, column) => {
    let lines = files.get(file)
    if (lines === undefined) files.set(file, (lines = readSource(file)?.split('\n') ?? null))
    return isAsyncFunctionStart(lines?.[line - 1] ?? null, column)
  }
}

/**
 * The app's files the report points into, for its source panel.
 * @param {import('./analyze.js').AsyncAnalysis} analysis
 * @returns {Record<string, string>}
 */
function readSources (analysis) {
  /** @type {Record<string, string>} */
  const sources = {}
  for (const site of analysis.sites) {
    if (!site.app) continue
    for (const frame of site.frames) {
      if (frame.file in sources) continue
      const text = readSource(frame.file)
      if (text !== null) sources[frame.file] = text
    }
  }
  return sources
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

/**
 * What the terminal shows of a run folder rendered again (`dyno report`).
 * @param {Awaited<ReturnType<typeof renderFolder>>} rendered
 * @param {import('../../run-folder.js').RunMeta} meta
 * @param {import('../../report/style.js').Style} style
 */
export function summarize (rendered, meta, style) {
  return renderAsyncSummary(rendered, style)
}
