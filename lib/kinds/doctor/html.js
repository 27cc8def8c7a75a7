/**
 * The doctor report: one self-contained HTML file (see html-page.js) with
 * the diagnoses at the top and a chart of every signal on one time axis
 * below, drawn by uPlot, which viewer/doctor/ imports into its bundle.
 * It loads nothing from the network and works from file://. Every string
 * that came from the app (the command, resource types, listener names, how
 * it ended) travels as JSON data and reaches the page through textContent.
 */
import { chartData } from './chart-data.js'
import { reportPage } from '../../report/html-page.js'
import { runFacts } from '../../report/run-facts.js'
import { WINDOW_SOURCES, keyFigures } from './terminal.js'
import { decimal } from '../../format.js'

const render = reportPage({ page: 'doctor.html', entry: 'doctor/main.js' })

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
  return render(doctorReportData(run))
}
