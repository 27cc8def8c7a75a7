/* The figures of a range of the run: what the charts show there, summed up. The load window at first; the range zoomed on after. */
import { MB, bytes, ms } from '../../lib/format.js'
import { formatCount } from '../shared/format.js'
import { renderFacts } from '../shared/header.js'

/**
 * @typedef {{ t: number[], series: Record<string, (number | null)[]>, load: { t: number[], rps: number[], errors: number[], p50: (number | null)[], p99: (number | null)[], max: (number | null)[] } }} DoctorCharts
 */

/**
 * @param {DoctorCharts} charts
 * @param {number} from seconds
 * @param {number} to seconds
 * @returns {[string, string][]}
 */
export function rangeFigures (charts, from, to) {
  const { t, series } = charts
  /** @type {number[]} */
  const inside = []
  for (let i = 0; i < t.length; i++) if (t[i] > from && t[i] <= to) inside.push(i)
  if (inside.length === 0) return [['samples', 'none in this range']]
  /** @param {string} name */
  const values = (name) => /** @type {number[]} */ (inside.map((i) => series[name][i]).filter((v) => v !== null))
  const span = inside.reduce((sum, i) => sum + Number(series.span[i]), 0)
  /** the mean of a series, weighted by the time each bucket covers @param {string} name */
  const mean = (name) => inside.reduce((sum, i) => sum + Number(series[name][i] ?? 0) * Number(series.span[i]), 0) / span
  const delays = values('delayMax').sort((a, b) => a - b)
  const p99 = delays.length ? delays[Math.min(delays.length - 1, Math.ceil(0.99 * delays.length) - 1)] : 0
  const heap = values('heapUsed')
  const rss = values('rss')
  /** @type {[string, string][]} */
  const rows = [
    ['time', from.toFixed(1) + ' s to ' + to.toFixed(1) + ' s'],
    ['event-loop delay', 'p99 ' + ms(p99) + ', max ' + ms(delays.length ? delays[delays.length - 1] : 0)],
    ['loop busy', mean('elu').toFixed(0) + '%'],
    ['CPU', mean('cpu').toFixed(0) + '% of a core'],
    ['GC', mean('gcShare').toFixed(1) + '% of the time']
  ]
  // The memory series are in MB, as the charts draw them.
  const mb = (/** @type {number} */ n) => bytes(Math.round(n * MB))
  if (heap.length) rows.push(['heap used', mb(heap[0]) + ' → ' + mb(heap[heap.length - 1])])
  if (rss.length) rows.push(['rss', mb(rss[0]) + ' → ' + mb(rss[rss.length - 1])])
  rows.push(['requests (app)', formatCount(mean('finished')) + '/s finished'])
  const load = charts.load.t.map((at, i) => ({ at, rps: charts.load.rps[i], errors: charts.load.errors[i], p99: charts.load.p99[i] })).filter((p) => p.at > from && p.at <= to)
  if (load.length) {
    const p99s = /** @type {number[]} */ (load.map((p) => p.p99).filter((v) => v !== null))
    rows.push(['load', formatCount(load.reduce((sum, p) => sum + p.rps, 0) / load.length) + ' req/s, ' + formatCount(load.reduce((sum, p) => sum + p.errors, 0)) + ' errors' +
      (p99s.length ? ', latency p99 up to ' + ms(Math.max(...p99s)) : '')])
  }
  return rows
}

/**
 * @param {HTMLElement} title
 * @param {HTMLElement} list
 * @param {string} heading
 * @param {[string, string][]} rows
 */
export function renderFigures (title, list, heading, rows) {
  title.textContent = heading
  renderFacts(list, rows)
}
