/**
 * The doctor report: one self-contained HTML file with the diagnoses at the
 * top and a chart of every signal on one time axis below, drawn by uPlot,
 * which is inlined with dyno's browser code (viewer/shared, viewer/doctor).
 * It loads nothing from the network and works from file://. Every string
 * that came from the app (the command, resource types, listener names, how
 * it ended) travels as JSON data and reaches the page through textContent.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { chartData } from './chart-data.js'
import { runFacts } from '../../report/run-facts.js'
import { embedJson } from '../flame/html.js'
import { WINDOW_SOURCES, keyFigures } from './terminal.js'
import { decimal } from '../../format.js'

const VIEWER = new URL('../../../viewer/', import.meta.url)
const require = createRequire(import.meta.url)

/** The browser scripts in the order they are inlined; a script uses what those before it define. */
const SCRIPTS = [
  'shared/format.js', 'shared/state.js', 'shared/theme.js', 'shared/header.js',
  'doctor/diagnoses.js', 'doctor/figures.js', 'doctor/charts.js', 'doctor/report.js',
  'shared/main.js'
]

/** @type {{ page: string, style: string, script: string, csp: string } | undefined} */
let viewer

function loadViewer () {
  const read = (/** @type {string} */ name) => readFileSync(new URL(name, VIEWER), 'utf8')
  const uplot = readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8')
  const uplotStyle = readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8')
  const script = `(function () {\n'use strict'\n${read('doctor/language.js')}\n${uplot}\n${SCRIPTS.map(read).join('\n')}\n})()\n`
  const style = `${uplotStyle}\n${read('style.css')}\n${read('doctor/style.css')}`
  for (const text of [script, style]) {
    if (/<\/(script|style)|<!--/i.test(text)) throw new Error('report code must not contain </script, </style or <!--')
  }
  // Only this exact script and style apply: even a string that broke out of the data could not run.
  const hash = (/** @type {string} */ text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
  const csp = `default-src 'none'; script-src ${hash(script)}; style-src ${hash(style)}; base-uri 'none'; form-action 'none'`
  return { page: read('doctor.html'), style, script, csp }
}

/**
 * What the page is given.
 * @param {{ meta: import('../../run-folder.js').RunMeta, analysis: import('./analyze.js').DoctorAnalysis, samples: import('./series.js').DoctorSample[], timeline: import('./types.js').LoadTimeline }} run
 */
export function doctorReportData ({ meta, analysis, samples, timeline }) {
  const charts = chartData(samples, timeline)
  const window = analysis.window ? { start: (analysis.window.startMs - charts.startMs) / 1000, end: (analysis.window.endMs - charts.startMs) / 1000, source: analysis.window.source } : null
  return {
    title: meta.title,
    facts: {
      title: meta.title,
      durationMs: Date.parse(meta.finishedAt) - Date.parse(meta.startedAt),
      ...runFacts(meta)
    },
    sampleIntervalMs: Number(meta.options.sampleIntervalMs) || null,
    window,
    figures: window && analysis.summary ? windowFigures(window, analysis.summary) : null,
    diagnoses: analysis.diagnoses.map((d) => ({ kind: d.kind, title: d.title, evidence: d.evidence, unless: d.unless, next: d.next })),
    note: analysis.note,
    charts
  }
}

/**
 * The figures of the window the diagnoses judged, as the terminal shows them
 * after the run: what the report shows until a range is zoomed on.
 * @param {{ start: number, end: number, source: import('./series.js').LoadWindow['source'] }} window seconds on the charts' axis
 * @param {import('./summary.js').DoctorSummary} summary
 * @returns {[string, string][]}
 */
function windowFigures (window, summary) {
  const time = `${decimal(window.start, 1)} s to ${decimal(window.end, 1)} s, ${WINDOW_SOURCES[window.source]}`
  const rows = /** @type {[string, string][]} */ (keyFigures(summary).slice(1))
  return [['time', time], ...rows]
}

/**
 * @param {Parameters<typeof doctorReportData>[0]} run
 * @returns {string} the whole HTML report
 */
export function renderDoctorHtml (run) {
  viewer ??= loadViewer()
  /** @type {Record<string, string>} */
  const parts = { csp: viewer.csp, style: viewer.style, script: viewer.script, data: embedJson(doctorReportData(run)) }
  return viewer.page.replace(/\{\{(csp|style|script|data)\}\}/g, (_, name) => parts[name])
}
