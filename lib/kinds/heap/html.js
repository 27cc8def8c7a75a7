/**
 * The heap report: one self-contained HTML file (see html-page.js) with the
 * comparison, the leaks and their paths. Constructor names, property names
 * and string values come from the app's heap: they travel as JSON data and
 * reach the page through textContent only.
 */
import { reportPage } from '../../report/html-page.js'

const render = reportPage({ page: 'heap.html', entry: 'heap/main.js' })

/**
 * @param {{ title: string, startedAt: string, node: string | null, analysis: import('./analyze.js').HeapAnalysis,
 *   timings: import('./types.js').SnapshotTiming[] }} data
 * @returns {string} the whole HTML report
 */
export function renderHeapHtml (data) {
  return render(data)
}
