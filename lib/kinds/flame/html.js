/**
 * The flamegraph report: one self-contained HTML file carrying the FlameData
 * and the browser code of viewer/ inline (see html-page.js). Every string of
 * the profiled program travels as JSON data and reaches the page through
 * textContent or the canvas only.
 */
import { CATEGORIES, TIERS } from '../../cpu-profile/flame-data.js'
import { reportPage } from '../../report/html-page.js'

export { embedJson } from '../../report/html-page.js'

/** @typedef {import('../../cpu-profile/flame-data.js').FlameData} FlameData */

const render = reportPage({ page: 'index.html', entry: 'flame/main.js' })

/**
 * FlameData's numbered tables, by name -> index, for the viewer's scripts:
 * `tables.category.gc` is the `frames.category` value of GC frames. The page
 * carries them as data from lib/analyze, so the viewer copies no index.
 */
export function flameTables () {
  const byName = (/** @type {readonly string[]} */ names) => Object.fromEntries(names.map((name, i) => [name, i]))
  return { category: byName(CATEGORIES), tier: byName(TIERS) }
}

/**
 * @param {FlameData} data
 * @returns {string} the whole HTML report
 */
export function renderFlameHtml (data) {
  return render(data, { tables: flameTables() })
}
