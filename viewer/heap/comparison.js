/* The comparison table: DevTools' columns, sortable by each, a row opening onto its sample objects and retainer paths. */
import { bytes, signedBytes } from '../../lib/format.js'
import { formatCount } from '../shared/format.js'
import { formatSigned } from './format.js'
import { pathList } from './paths.js'
/** @import { PathStep } from './paths.js' */

/**
 * @typedef {{ name: string, newCount: number, deletedCount: number, countDelta: number, allocSize: number, freedSize: number,
 *   sizeDelta: number, retainedDelta: number, counts: number[] }} Row
 * @typedef {{ name: string, objects: number, walked: number, samples: { id: number, name: string, selfSize: number, retainedSize: number }[],
 *   paths: { count: number, steps: PathStep[], holder: { text: string, location: string | null } }[] }} Details
 * @typedef {'name' | 'newCount' | 'deletedCount' | 'countDelta' | 'allocSize' | 'freedSize' | 'sizeDelta' | 'retainedDelta'} Column
 */

/** @type {[Column, (row: Row) => string][]} */
export const COLUMNS = [
  ['name', (r) => r.name],
  ['newCount', (r) => formatCount(r.newCount)],
  ['deletedCount', (r) => formatCount(r.deletedCount)],
  ['countDelta', (r) => formatSigned(r.countDelta)],
  ['allocSize', (r) => bytes(r.allocSize)],
  ['freedSize', (r) => bytes(r.freedSize)],
  ['sizeDelta', (r) => signedBytes(r.sizeDelta)],
  ['retainedDelta', (r) => signedBytes(r.retainedDelta)]
]

/**
 * @param {Row[]} rows @param {Column} by @param {boolean} descending @param {string} search
 * @returns {Row[]}
 */
export function sortRows (rows, by, descending, search) {
  const needle = search.trim().toLowerCase()
  const shown = needle ? rows.filter((r) => r.name.toLowerCase().includes(needle)) : rows.slice()
  const sign = descending ? -1 : 1
  shown.sort((a, b) => {
    const x = a[by]
    const y = b[by]
    const order = typeof x === 'string' ? x.localeCompare(/** @type {string} */ (y)) : x - /** @type {number} */ (y)
    return sign * order || a.name.localeCompare(b.name)
  })
  return shown
}

/**
 * @param {HTMLTableSectionElement} body
 * @param {Row[]} rows in the order to show
 * @param {{ expanded: string | null, growing: Set<string>, details: Map<string, Details>, onToggle: (name: string) => void }} view
 */
export function renderComparison (body, rows, view) {
  const out = []
  for (const row of rows) {
    const tr = document.createElement('tr')
    tr.className = 'row' + (view.growing.has(row.name) ? ' growing' : '')
    tr.setAttribute('aria-expanded', String(view.expanded === row.name))
    tr.tabIndex = 0
    for (const [column, text] of COLUMNS) {
      const td = document.createElement('td')
      td.className = column === 'name' ? 'name' : 'num'
      td.textContent = text(row)
      if (column === 'name') td.title = row.name
      tr.append(td)
    }
    tr.addEventListener('click', () => view.onToggle(row.name))
    tr.addEventListener('keydown', (event) => { if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); view.onToggle(row.name) } })
    out.push(tr)
    if (view.expanded === row.name) out.push(detailsRow(row, view.details.get(row.name)))
  }
  body.replaceChildren(...out)
}

/** @param {Row} row @param {Details | undefined} details */
function detailsRow (row, details) {
  const tr = document.createElement('tr')
  tr.className = 'details'
  const td = document.createElement('td')
  td.colSpan = COLUMNS.length
  const box = document.createElement('div')
  box.className = 'details'
  const counts = document.createElement('div')
  counts.className = 'muted'
  counts.textContent = 'count in each snapshot: ' + row.counts.map(formatCount).join(' → ')
  box.append(counts)
  if (!details || details.objects === 0) {
    const note = document.createElement('p')
    note.className = 'muted'
    note.textContent = details ? 'No new object of this class is still alive.' : 'Sample objects and paths are kept for the classes that grew most.'
    box.append(note)
  } else {
    box.append(heading('Retainer paths of ' + formatCount(details.objects) + ' new objects' + (details.walked < details.objects ? ' (' + formatCount(details.walked) + ' sampled)' : '')))
    for (const path of details.paths) {
      const held = document.createElement('div')
      const count = document.createElement('span')
      count.className = 'path-count'
      count.textContent = formatCount(path.count) + ' held by '
      held.append(count, document.createTextNode(path.holder.text + (path.holder.location ? ' (' + path.holder.location + ')' : '')))
      box.append(held, pathList(path.steps))
    }
    box.append(heading('Sample objects'))
    const table = document.createElement('table')
    table.className = 'samples'
    for (const sample of details.samples) {
      const sampleRow = table.insertRow()
      for (const text of ['@' + sample.id, sample.name, 'self ' + bytes(sample.selfSize), 'retained ' + bytes(sample.retainedSize)]) {
        sampleRow.insertCell().textContent = text
      }
    }
    box.append(table)
  }
  td.append(box)
  tr.append(td)
  return tr
}

/** @param {string} text */
function heading (text) {
  const h = document.createElement('h3')
  h.textContent = text
  return h
}
