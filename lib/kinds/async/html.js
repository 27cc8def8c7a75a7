/**
 * The async report: one self-contained HTML file (see html-page.js) with the
 * findings, the waterfalls of the typical and the slowest request, the
 * operations by call site and the app's source. Paths, function names, the
 * request's path and the source come from the app: they travel as JSON data
 * and reach the page through textContent only.
 */
import { explainFinding, placeNamer, relativeFile } from './words.js'
import { reportPage } from '../../report/html-page.js'

const render = reportPage({ page: 'async.html', entry: 'async/main.js' })

/**
 * @typedef {object} AsyncReportMeta
 * @property {string} title
 * @property {string} startedAt
 * @property {string | null} finishedAt
 * @property {string | null} node
 * @property {string} cwd
 * @property {{ how: string, code: number | null, signal: string | null } | null} exit
 * @property {ReturnType<typeof import('../../report/run-facts.js').loadFigures> | null} load
 */

/**
 * @param {{ meta: AsyncReportMeta, analysis: import('./analyze.js').AsyncAnalysis, sources: Record<string, string> }} input
 * @returns {string} the whole HTML report
 */
export function renderAsyncHtml ({ meta, analysis, sources }) {
  const places = placeNamer(analysis, meta.cwd)
  return render({
    meta,
    analysis: {
      ...analysis,
      findings: analysis.findings.map((f) => ({ ...f, where: places.location(f.location), words: explainFinding(f, places) })),
      sites: analysis.sites.map((s) => ({ ...s, frames: s.frames.map((f) => ({ ...f, shown: relativeFile(f.file, meta.cwd) })) }))
    },
    sources
  })
}
