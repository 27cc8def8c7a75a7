/* The findings: each with its kind, where it is, its cost and saving per request, and what to do. */
import { shortDuration } from '../../lib/format.js'
import { formatCount } from '../shared/format.js'
/** @import { Finding, SourceLocation } from './data.js' */

/**
 * @param {HTMLElement} list
 * @param {Finding[]} findings
 * @param {{ analyzed: number }} traced
 * @param {(location: SourceLocation) => void} onShow shows a finding's line
 */
export function renderFindings (list, findings, traced, onShow) {
  list.replaceChildren()
  if (findings.length === 0) {
    const item = document.createElement('li')
    item.className = 'finding-text muted'
    item.textContent = traced.analyzed > 0
      ? 'No serial awaits, awaits in loops or unbounded fan-outs in the ' + formatCount(traced.analyzed) + ' requests traced.'
      : 'No request was traced.'
    list.append(item)
    return
  }
  for (const finding of findings) {
    const item = document.createElement('li')
    const head = document.createElement('div')
    head.className = 'finding-head'
    const kind = document.createElement('span')
    kind.className = 'finding-kind'
    kind.textContent = finding.kind
    const where = document.createElement('button')
    where.type = 'button'
    where.className = 'finding-where'
    where.textContent = finding.where
    where.addEventListener('click', () => onShow(finding.location))
    const cost = document.createElement('span')
    cost.className = 'finding-cost'
    cost.textContent = shortDuration(finding.perRequestMs) + ' a request, saves ~' + shortDuration(finding.savingMs) +
      ' (in ' + formatCount(finding.requests) + ' of ' + formatCount(traced.analyzed) + ' traced requests)'
    head.append(kind, where, cost)
    item.append(head)
    for (const sentence of finding.words) {
      const p = document.createElement('p')
      p.className = 'finding-text'
      p.textContent = sentence
      item.append(p)
    }
    list.append(item)
  }
}
