import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { analyzeAsync } from './analyze.js'
import { parseAsyncData } from './data.js'
import { isAsyncFunctionStart } from './unneeded.js'
import { dynoError } from '../../errors.js'
import { renderAsyncHtml } from './html.js'
import { readMeta } from '../../run-folder.js'
import { runFacts } from '../../report/run-facts.js'
import { readSource } from '../../commands/read-source.js'
import { renderAsyncSummary } from './terminal.js'
import { asyncResult } from './json.js'

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
      ...runFacts(meta),
      finishedAt: meta.finishedAt ?? null,
      cwd: meta.cwd ?? folder
    },
    analysis,
    sources: readSources(analysis)
  }))
  return { analysis, result, meta, html: join(folder, FILES.html) }
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

/**
 * What the terminal shows of a run folder rendered again (`dyno report`).
 * @param {Awaited<ReturnType<typeof renderFolder>>} rendered
 * @param {import('../../run-folder.js').RunMeta} meta
 * @param {import('../../report/style.js').Style} style
 */
export function summarize (rendered, meta, style) {
  return renderAsyncSummary(rendered, style)
}
