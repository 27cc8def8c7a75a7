import { pathToFileURL } from 'node:url'
import { bytes, count, decimal, ms } from '../../format.js'
import { sharedPortLine } from '../../report/shared-port.js'
import { table } from '../../report/table.js'

/**
 * The end of a doctor run on the terminal: the diagnoses with their evidence
 * and next command, a short table of the key figures under load, how the app
 * ended, and where the report is.
 */

/** How the window under load was found, as the reports say it. */
export const WINDOW_SOURCES = {
  load: 'while dyno\'s load ran',
  'on-port': 'while the --on-port command ran',
  requests: 'from the first request the app answered to the last',
  run: 'the whole run: nothing loaded the app'
}

/**
 * @param {{ analysis: import('./analyze.js').DoctorAnalysis, meta: import('../../run-folder.js').RunMeta, html: string }} rendered
 * @param {{ how: string } | null} end
 * @param {import('../../report/style.js').Style} style
 */
export function renderDoctorSummary (rendered, end, style) {
  const { analysis, meta } = rendered
  const out = []
  const shared = sharedPortLine(meta)
  if (shared) out.push(style.dim(shared), '')
  if (analysis.diagnoses.length === 0) out.push(style.yellow(`No diagnosis: ${analysis.note}.`))
  for (const d of analysis.diagnoses) {
    const mark = d.kind === 'healthy' ? style.green('●') : style.red('●')
    out.push(`${mark} ${style.bold(d.kind)}: ${d.title}`)
    out.push(`  ${d.evidence}.`)
    out.push(style.dim(`  It would not hold if ${d.unless}.`))
    out.push(`  Next: ${style.cyan(d.next)}`, '')
  }
  if (analysis.window && analysis.summary) {
    const seconds = (analysis.window.endMs - analysis.window.startMs) / 1000
    out.push(style.bold(`Under load: ${decimal(seconds, 1)} s, ${WINDOW_SOURCES[analysis.window.source]}`))
    out.push(table(keyFigures(analysis.summary), style), '')
  }
  if (end) out.push(`The app ${end.how}.`)
  out.push(`Report: ${pathToFileURL(rendered.html).href}`)
  return out.join('\n') + '\n'
}

/**
 * @param {import('./summary.js').DoctorSummary} s
 * @returns {string[][]}
 */
export function keyFigures (s) {
  const pct = (/** @type {number} */ share) => `${decimal(share * 100, 0)}%`
  const rows = [
    ['Signal', 'Under load'],
    ['Event-loop delay', `p50 ${ms(s.delay.p50)}, p99 ${ms(s.delay.p99)}, max ${ms(s.delay.max)}`],
    ['Loop utilization', pct(s.elu)],
    ['CPU', `${pct(s.cpu.mean)} of a core (user ${pct(s.cpu.user)}, system ${pct(s.cpu.system)}), busiest second ${pct(s.cpu.max)}`],
    ['GC', `${pct(s.gc.share)} of the time, longest pause ${ms(s.gc.maxPauseMs)}`]
  ]
  if (s.memory.heapUsed) rows.push(['Heap used after GC', `${bytes(s.memory.heapUsed.start)} → ${bytes(s.memory.heapUsed.end)}`])
  const afterGc = s.memory.heapAfterFullGc
  if (afterGc) {
    const still = afterGc.inFlightAfter > 0 ? ` (${count(afterGc.inFlightAfter)} requests still at work then)` : ''
    rows.push(['Heap after a full GC', [afterGc.beforeLoad, afterGc.afterLoad].map((n) => n === null ? '?' : bytes(n)).join(' before the load, ') + ' after it' + still])
  }
  if (s.memory.rss) rows.push(['RSS', `${bytes(s.memory.rss.start)} → ${bytes(s.memory.rss.end)}, max ${bytes(s.memory.rss.max)}`])
  if (s.http.finished > 0) {
    const each = s.http.inFlight >= 0.5 ? `, about ${ms(/** @type {number} */ (s.http.serverLatencyMs))} each` : ''
    rows.push(['Requests (app)', `${count(s.http.perSecond)}/s, ${decimal(s.http.inFlight, 1)} in flight on average${each}`])
  }
  if (s.load) {
    const { latencyP50: p50, latencyP99: p99 } = s.load
    const latency = p50 === null || p99 === null ? 'no request answered' : `latency p50 ${ms(p50)}, p99 ${ms(p99)}`
    rows.push(['Load', `${count(s.load.requestsPerSecond)} req/s, ${latency}, ${count(s.load.errors)} errors`])
  }
  return rows
}
