/* A request's waterfall: each operation a bar from when it was made to when it settled, its continuation marked. */
import { shortDuration } from '../../lib/format.js'
import { siteText } from './data.js'
/** @import { Bar, RequestView, Site } from './data.js' */

/**
 * @param {HTMLElement} container
 * @param {RequestView} view
 * @param {{ sites: Map<number, Site>, criticalOnly: boolean,
 *   onSelect: (site: number) => void, tooltip: { show: (x: number, y: number, content: { title: string, where: string, rows: [string, string][] }) => void, hide: () => void } }} options
 */
export function renderWaterfall (container, view, options) {
  const { sites, tooltip } = options
  const total = Math.max(view.durationMs, ...view.bars.map((b) => b.end), 0.01)
  const at = (/** @type {number} */ ms) => Math.min(100, Math.max(0, ms / total * 100)) + '%'
  const bars = view.bars.filter((b) => !options.criticalOnly || b.critical).sort((a, b) => a.start - b.start || a.id - b.id)

  const axis = document.createElement('div')
  axis.className = 'wf-axis'
  const scale = document.createElement('div')
  scale.className = 'wf-scale'
  for (const tick of ticks(total)) {
    const label = document.createElement('span')
    label.style.left = at(tick)
    label.textContent = shortDuration(tick)
    scale.append(label)
  }
  const first = document.createElement('span')
  first.textContent = bars.length + ' operations'
  axis.append(document.createElement('span'), first, scale, document.createElement('span'))

  const rows = bars.map((bar) => {
    const row = document.createElement('div')
    row.className = 'wf-row'
    row.setAttribute('role', 'listitem')
    row.dataset.site = String(bar.site)
    const kind = document.createElement('span')
    kind.className = 'wf-kind'
    kind.textContent = bar.kind
    // The label is cut on its left, to keep the line number in view; <bdi> keeps its text in order.
    const label = document.createElement('span')
    label.className = 'wf-label'
    const where = document.createElement('bdi')
    where.textContent = siteText(sites.get(bar.site))
    label.append(where)
    const track = document.createElement('span')
    track.className = 'wf-track'
    const fill = document.createElement('i')
    fill.className = 'wf-bar' + (bar.await ? ' await' : '') + (bar.critical ? ' critical' : '') + (bar.settled ? '' : ' open')
    fill.style.left = at(bar.start)
    fill.style.width = 'calc(' + at(bar.end - bar.start) + ' + 0px)'
    track.append(fill)
    if (bar.resumed >= 0) {
      const tick = document.createElement('i')
      tick.className = 'wf-tick'
      tick.style.left = at(bar.resumed)
      track.append(tick)
    }
    const ms = document.createElement('span')
    ms.className = 'wf-ms'
    ms.textContent = bar.settled ? shortDuration(bar.end - bar.start) : 'never'
    row.append(kind, label, track, ms)
    row.addEventListener('click', () => options.onSelect(bar.site))
    row.addEventListener('mousemove', (event) => tooltip.show(event.clientX, event.clientY, describe(bar, sites.get(bar.site))))
    row.addEventListener('mouseleave', () => tooltip.hide())
    return row
  })
  container.replaceChildren(axis, ...rows)
}

/**
 * @param {Bar} bar
 * @param {Site | undefined} site
 * @returns {{ title: string, where: string, rows: [string, string][] }}
 */
function describe (bar, site) {
  /** @type {[string, string][]} */
  const rows = [
    ['kind', bar.kind + (bar.type !== 'PROMISE' ? ' (' + bar.type + ')' : '')],
    ['made at', shortDuration(bar.start)],
    [bar.settled ? 'settled at' : 'never settled', bar.settled ? shortDuration(bar.end) : ''],
    ['waited', bar.settled ? shortDuration(bar.end - bar.start) : 'until the end']
  ]
  if (bar.resumed >= 0) rows.push(['continued at', shortDuration(bar.resumed)])
  if (bar.critical) rows.push(['', 'on the critical path'])
  const callers = site ? site.frames.slice(1).map((f) => (f.fn || '(anonymous)') + ' ' + f.shown + ':' + f.line).join(' ← ') : ''
  return { title: siteText(site), where: callers ? 'called from ' + callers : '', rows }
}

/** Round times for the axis: about five, at 1, 2 or 5 × 10^n ms. @param {number} total */
function ticks (total) {
  const raw = total / 5
  const magnitude = Math.pow(10, Math.floor(Math.log10(raw)))
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) || raw
  const out = []
  for (let t = 0; t <= total + 1e-9; t += step) out.push(t)
  return out
}

/**
 * Marks the rows of `container` (the waterfall's, the call sites') made at `site`.
 * @param {HTMLElement} container
 * @param {number} site
 */
export function markSelected (container, site) {
  for (const row of container.querySelectorAll('[data-site]')) {
    row.setAttribute('aria-selected', String(site >= 0 && /** @type {HTMLElement} */ (row).dataset.site === String(site)))
  }
}
