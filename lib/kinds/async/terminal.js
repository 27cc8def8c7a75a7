import { pathToFileURL } from 'node:url'
import { MIN_JUDGED } from './analyze.js'
import { explainFinding, ms, placeNamer } from './words.js'
import { count } from '../../format.js'
import { sharedPortLine } from '../../report/shared-port.js'

/** @typedef {import('./words.js').Places} Places */

/** The most steps of the typical request's critical path printed. */
const MAX_PATH_LINES = 8

/**
 * The end of an async run on the terminal: what was traced, the findings by
 * time per request with where they are and what a change would save, the
 * typical request's critical path, how the app ended, and where the report is.
 * @param {{ analysis: import('./analyze.js').AsyncAnalysis, html: string, meta: import('../../run-folder.js').RunMeta }} rendered
 * @param {import('../../report/style.js').Style} style
 */
export function renderAsyncSummary (rendered, style) {
  const { analysis, meta } = rendered
  const where = placeNamer(analysis, meta.cwd)
  const shared = sharedPortLine(meta)
  const out = shared ? [style.dim(shared), '', traced(analysis, meta.load)] : [traced(analysis, meta.load)]
  if (analysis.traced.total > 0) {
    out.push('')
    if (analysis.findings.length === 0) {
      out.push(analysis.tooFew
        ? style.yellow(`Too few requests traced to judge: ${tooFewWords(analysis)}`)
        : `No serial awaits, awaits in loops or unbounded fan-outs in the ${count(analysis.traced.analyzed)} requests traced.`)
    } else {
      if (analysis.tooFew) out.push(style.yellow(`Few requests traced: ${tooFewWords(analysis)}`), '')
      out.push(style.bold('Findings, by time per request'))
      for (const finding of analysis.findings) out.push(...findingLines(finding, where, style))
    }
    const typical = analysis.typical ?? analysis.slowest
    if (typical) out.push('', ...pathLines(typical, typical === analysis.typical ? 'Typical request' : 'Slowest request', where, style))
  }
  if (meta.end) out.push('', `The app ${meta.end.how}.`)
  out.push('', `Report: ${pathToFileURL(rendered.html).href}`)
  return out.join('\n') + '\n'
}

/** @param {import('./analyze.js').AsyncAnalysis} analysis */
function tooFewWords (analysis) {
  return `${count(analysis.traced.finished)} finished of the ${count(analysis.counts.finished)} the app answered; ` +
    `a longer load, or a higher --max-rate, traces more (${MIN_JUDGED} or more say something).`
}

/**
 * @param {import('./analyze.js').AsyncAnalysis} analysis
 * @param {import('../../load/summary.js').LoadResult | null} load
 */
function traced (analysis, load) {
  const { counts, traced, latency } = analysis
  if (counts.requests === 0 && traced.total === 0) {
    // The tracer hands over from the app's main thread: a loop blocked from the first request on hands over nothing.
    if (load && load.requests.sent > 0) return `The load sent ${count(load.requests.sent)} requests and the app handed over none: its event loop was blocked, or it never took them. dyno doctor says which.`
    return 'No HTTP request reached the app while it was observed: drive it with --load or --on-port.'
  }
  const limit = counts.perSecond > 0 ? `, at most ${count(counts.perSecond)} a second` : ''
  let line = `${count(counts.requests)} requests, ${count(traced.total)} traced (1 in ${count(counts.sample)}${limit})`
  if (latency) line += `; typical ${ms(latency.medianMs)}, slowest ${ms(latency.maxMs)}`
  if (traced.open > 0) line += `; ${count(traced.open)} traced never finished`
  if (traced.aborted > 0) line += `; ${count(traced.aborted)} cut off when the client went away`
  return line + '.'
}

/**
 * @param {import('./analyze.js').AsyncFinding} finding
 * @param {Places} where
 * @param {import('../../report/style.js').Style} style
 */
function findingLines (finding, where, style) {
  const [what, change] = explainFinding(finding, where)
  return [
    `  ${style.yellow(finding.kind)}  ${where.location(finding.location)}  ${ms(finding.perRequestMs)} a request, saves ~${ms(finding.savingMs)}`,
    `    ${what}`,
    `    ${change}`
  ]
}

/**
 * @param {import('./analyze.js').RequestView} view
 * @param {string} title
 * @param {Places} where
 * @param {import('../../report/style.js').Style} style
 */
function pathLines (view, title, where, style) {
  const lines = [style.bold(`${title}: ${view.method} ${view.path}, ${ms(view.durationMs)}${view.how === 'finished' ? '' : ` (${view.how})`}; its critical path`)]
  const worth = pathGroups(view.steps).filter((g) => g.end - g.start >= Math.max(0.5, view.durationMs * 0.01))
  if (worth.length === 0) lines.push('  no wait on it: the time went to running code')
  const shown = worth.slice(0, MAX_PATH_LINES)
  const width = Math.max(...shown.map((s) => ms(s.end).length))
  for (const group of shown) {
    const step = group.steps.reduce((a, b) => (b.end - b.start > a.end - a.start ? b : a))
    const awaited = step.awaitedAt >= 0 ? `${where.isApp(step.site) ? ',' : ''} awaited at ${where.site(step.awaitedAt)}` : ''
    const what = step.waitedOn ? `${step.kind} of ${step.waitedOn}` : step.kind
    const times = group.steps.length > 1 ? ` (${group.steps.length} in a row)` : ''
    // Made inside Node or a library, its own place says less than the await it ended.
    const made = where.isApp(step.site) || step.awaitedAt < 0 ? ` made at ${where.site(step.site)}` : ''
    lines.push(`  ${ms(group.start).padStart(width)} → ${ms(group.end).padStart(width)}  ${what.padEnd(7)}${made}${awaited}${times}`)
  }
  if (worth.length > MAX_PATH_LINES) lines.push(`  … and ${worth.length - MAX_PATH_LINES} more waits (see the report)`)
  return lines
}

/**
 * Consecutive waits of the path that the app's code awaited at one place (a
 * loop's turns, the open, read and close of a readFile), as one line named by
 * the longest of them: twenty short queries in a row are a wait worth showing
 * though none alone is.
 * @param {import('./path.js').PathStep[]} steps
 */
function pathGroups (steps) {
  /** @type {{ steps: import('./path.js').PathStep[], start: number, end: number }[]} */
  const groups = []
  for (const step of steps) {
    const last = groups[groups.length - 1]
    const first = last?.steps[0]
    if (last && first && first.awaitedAt === step.awaitedAt && (first.awaitedAt >= 0 || first.site === step.site)) {
      last.steps.push(step)
      last.end = step.end
    } else {
      groups.push({ steps: [step], start: step.start, end: step.end })
    }
  }
  return groups
}
