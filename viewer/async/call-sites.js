/* The operations grouped by the call site that made them, with their counts and waits. */
import { shortDuration } from '../../lib/format.js'
import { formatCount } from '../shared/format.js'
import { siteText } from './data.js'
/** @import { CallSiteGroup, Site } from './data.js' */

/** @typedef {'kind' | 'place' | 'count' | 'perRequest' | 'meanWaitMs' | 'maxWaitMs' | 'totalWaitMs'} SiteColumn */

/**
 * @param {CallSiteGroup[]} groups
 * @param {Map<number, Site>} sites
 * @param {SiteColumn} by
 * @param {boolean} descending
 */
export function sortCallSites (groups, sites, by, descending) {
  /** @param {CallSiteGroup} g @returns {string | number} */
  const key = (g) => by === 'place' ? siteText(sites.get(g.site)) : by === 'kind' ? g.kind : by === 'perRequest' ? g.count : g[by]
  const sign = descending ? -1 : 1
  return [...groups].sort((a, b) => {
    const x = key(a)
    const y = key(b)
    return (x < y ? -1 : x > y ? 1 : 0) * sign
  })
}

/**
 * @param {HTMLTableSectionElement} body
 * @param {CallSiteGroup[]} groups sorted
 * @param {{ sites: Map<number, Site>, traced: number, onSelect: (site: number) => void }} options
 */
export function renderCallSites (body, groups, options) {
  body.replaceChildren(...groups.map((group) => {
    const row = document.createElement('tr')
    row.dataset.site = String(group.site)
    const cells = [
      [group.kind, ''],
      [siteText(options.sites.get(group.site)), 'place'],
      [formatCount(group.count) + (group.unsettled ? ' (' + formatCount(group.unsettled) + ' never settled)' : ''), 'num'],
      [options.traced ? (group.count / options.traced).toFixed(group.count >= options.traced * 10 ? 0 : 1) : '', 'num'],
      [shortDuration(group.meanWaitMs), 'num'],
      [shortDuration(group.maxWaitMs), 'num'],
      [shortDuration(group.totalWaitMs), 'num']
    ]
    for (const [text, className] of cells) {
      const cell = row.insertCell()
      if (className) cell.className = className
      // The place is cut on its left, to keep the line number in view; <bdi> keeps its text in order.
      if (className === 'place') cell.append(Object.assign(document.createElement('bdi'), { textContent: text }))
      else cell.textContent = text
    }
    row.addEventListener('click', () => options.onSelect(group.site))
    return row
  }))
}
