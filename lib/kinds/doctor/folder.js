import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { analyzeDoctor, fullGcOf } from './analyze.js'
import { parseSamples } from './series.js'
import { dynoError } from '../../errors.js'
import { doctorDocument } from './json.js'
import { renderDoctorHtml } from './html.js'
import { readMeta, writeJson } from '../../run-folder.js'
import { renderDoctorSummary } from './terminal.js'

export const FILES = {
  meta: 'meta.json',
  /** The observed process's samples, as the collector wrote them. */
  samples: 'doctor.jsonl',
  /** The load's progress, once a second, when dyno ran it. */
  timeline: 'load-timeline.json',
  /** The full GCs dyno had the app run before and after the load, and its memory after each. */
  fullGcs: 'full-gcs.json',
  /** The --json document. */
  json: 'doctor.json',
  html: 'report.html'
}

/**
 * Analyzes a doctor run folder and writes what derives from it: the JSON
 * document and the HTML report. `dyno doctor` and `dyno report` both end here.
 * @param {string} folder
 */
export function renderFolder (folder) {
  const meta = readMeta(folder)
  const samples = parseSamples(readText(folder, FILES.samples))
  const timeline = readTimeline(folder)
  const fullGcs = readFullGcs(folder)
  const options = /** @type {{ loadFlags?: string | null, load?: string | null, onPort?: string | null, sampleIntervalMs?: number }} */ (meta.options)
  const analysis = analyzeDoctor({
    samples,
    loadWindow: meta.loadWindow,
    driver: options.load ? 'load' : options.onPort ? 'on-port' : null,
    load: meta.load,
    fullGcs,
    run: { argv: meta.target?.argv ?? [], load: options.loadFlags ?? null, onPort: options.onPort ?? null, ...(meta.target?.pid ? { pid: meta.target.pid } : {}) },
    listened: meta.process?.listening != null,
    failed: meta.end && !meta.end.clean ? meta.end.how : null
  })
  const html = join(folder, FILES.html)
  const document = doctorDocument(meta, analysis, { folder, report: html })
  writeJson(folder, FILES.json, document)
  writeFileSync(html, renderDoctorHtml({ meta, analysis, samples, timeline }))
  return { meta, analysis, document, html }
}

/** @param {string} folder @param {string} name */
function readText (folder, name) {
  try {
    return readFileSync(join(folder, name), 'utf8')
  } catch (err) {
    const code = /** @type {NodeJS.ErrnoException} */ (err).code
    throw code === 'ENOENT'
      ? dynoError('DYNO_BAD_RUN_FOLDER.missingDoctor', { path: join(folder, name), folder })
      : dynoError('DYNO_BAD_RUN_FOLDER.unreadable', { path: join(folder, name), why: /** @type {Error} */ (err).message })
  }
}

/**
 * @param {string} folder
 * @returns {import('../../observe/observe.js').Observed['loadTimeline']}
 */
function readTimeline (folder) {
  try {
    const timeline = JSON.parse(readFileSync(join(folder, FILES.timeline), 'utf8'))
    return Array.isArray(timeline) ? timeline : []
  } catch {
    return []
  }
}

/**
 * Folders from before dyno ran full GCs around the load have none.
 * @param {string} folder
 * @returns {import('./analyze.js').FullGcs}
 */
function readFullGcs (folder) {
  try {
    const gcs = JSON.parse(readFileSync(join(folder, FILES.fullGcs), 'utf8'))
    return { before: fullGcOf(gcs?.before), after: fullGcOf(gcs?.after) }
  } catch {
    return { before: null, after: null }
  }
}

/**
 * What the terminal shows of a run folder rendered again (`dyno report`).
 * @param {Awaited<ReturnType<typeof renderFolder>>} rendered
 * @param {import('../../run-folder.js').RunMeta} meta
 * @param {import('../../report/style.js').Style} style
 */
export function summarize (rendered, meta, style) {
  return renderDoctorSummary(rendered, meta.end, style)
}
