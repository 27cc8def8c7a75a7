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

const render = reportPage({ page: 'doctor.html', entry: 'doctor/main.js' })

/**
 * What the page is given.
 * @param {{ meta: import('../../run-folder.js').RunMeta, analysis: import('./analyze.js').DoctorAnalysis, samples: import('./series.js').DoctorSample[], timeline: import('../../observe/observe.js').Observed['loadTimeline'] }} run
 */
export function doctorReportData ({ meta, analysis, samples, timeline }) {
  const charts = chartData(samples, timeline)
  const load = meta.load
  return {
    title: meta.title,
    facts: {
      title: meta.title,
      startedAt: meta.startedAt,
      durationMs: Date.parse(meta.finishedAt) - Date.parse(meta.startedAt),
      node: meta.node,
      v8: meta.v8,
      exit: meta.end ? { how: meta.end.how, code: meta.end.code, signal: meta.end.signal } : null,
      load: load ? { average: load.requests.average, p50: load.latency.percentiles['50'], p99: load.latency.percentiles['99'], errors: load.errors.total, non2xx: load.non2xx } : null
    },
    sampleIntervalMs: Number(meta.options.sampleIntervalMs) || null,
    window: analysis.window ? { start: (analysis.window.startMs - charts.startMs) / 1000, end: (analysis.window.endMs - charts.startMs) / 1000, source: analysis.window.source } : null,
    diagnoses: analysis.diagnoses.map((d) => ({ kind: d.kind, title: d.title, evidence: d.evidence, unless: d.unless, next: d.next })),
    note: analysis.note,
    charts
  }
}

/**
 * @param {Parameters<typeof doctorReportData>[0]} run
 * @returns {string} the whole HTML report
 */
export function renderDoctorHtml (run) {
  return render(doctorReportData(run))
}
