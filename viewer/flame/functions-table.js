/*
 * The functions table, as DevTools' Bottom-Up tab: one row per function with
 * its self and total samples (recursion counted once), sortable, narrowed by
 * the search. Only the first rows are in the DOM; "Show more" adds more.
 */
import { formatCount, formatLocation, formatShare } from '../shared/format.js'
/** @import { Frames } from './profile.js' */
/** @import { FunctionStats } from './stats.js' */

const TABLE_PAGE = 100
const KIND_LABELS = ['app', 'deps', 'core', 'native', 'gc', 'program']
const TIER_SHORT_NAMES = ['', 'interpreted', 'Sparkplug', 'Maglev', 'Turbofan']

/**
 * What the table shows.
 * @typedef {object} FunctionRows
 * @property {Frames} frames
 * @property {FunctionStats} stats
 * @property {Uint8Array | null} matches the search's matching frames; null shows all
 * @property {number} all samples in the tree, for the shares
 * @property {boolean} tiersKnown
 */

/**
 * @param {HTMLTableElement} table
 * @param {HTMLElement} countLabel
 * @param {HTMLButtonElement} moreButton
 * @param {(frame: number) => void} onSelect
 * @param {(n: number) => string} [amount] a count as a bare number, in the profile's unit
 */
export function createFunctionTable (table, countLabel, moreButton, onSelect, amount = formatCount) {
  const body = table.tBodies[0]
  const sortButtons = /** @type {HTMLButtonElement[]} */ ([...(table.tHead?.querySelectorAll('button[data-sort]') ?? [])])
  /** @type {'self' | 'total' | 'name'} */
  let sortKey = 'self'
  let descending = true
  let limit = TABLE_PAGE
  /** @type {number[]} */
  let rows = []
  /** @type {FunctionRows | null} */
  let view = null
  let selected = -1
  /** @type {Int32Array | null} */
  let nameRank = null
  /** @type {number[]} */
  let sorted = []

  /** @param {HTMLTableRowElement} tr @param {string} text @param {string} [className] */
  function cell (tr, text, className) {
    const td = tr.insertCell()
    td.textContent = text
    if (className) td.className = className
    return td
  }

  /** @param {HTMLTableRowElement} tr @param {number} samples @param {number} all */
  function sampleCell (tr, samples, all) {
    const td = cell(tr, formatShare(samples, all) + ' ', 'num')
    const count = document.createElement('span')
    count.className = 'muted'
    count.textContent = amount(samples)
    const bar = document.createElement('i')
    bar.className = 'cell-bar'
    bar.style.width = Math.min(100, samples / all * 100) + '%'
    td.append(count, bar)
  }

  /** @param {FunctionRows} view @param {number} f */
  function rowFor (view, f) {
    const { frames, stats, all, tiersKnown } = view
    const tr = document.createElement('tr')
    tr.dataset.frame = String(f)
    tr.setAttribute('aria-selected', String(f === selected))
    sampleCell(tr, stats.self[f], all)
    sampleCell(tr, stats.total[f], all)
    cell(tr, frames.name[f], 'name').title = frames.name[f]
    const where = formatLocation(frames.file[f], frames.line[f], frames.column[f])
    cell(tr, '\u2066' + where + '\u2069', 'where').title = where
    cell(tr, KIND_LABELS[frames.category[f]] || '')
    cell(tr, tiersKnown && frames.tier[f] ? TIER_SHORT_NAMES[frames.tier[f]] : '')
    return tr
  }

  /** Every function with samples, in the table's order; a search then only filters it. @param {FunctionRows} view */
  function sortAll (view) {
    const { frames, stats } = view
    // Sorting by name compares ranks: a collator on every comparison of 30k rows takes 100 ms.
    const rank = nameRank ??= nameRanks(frames)
    sorted = []
    for (let f = 0; f < frames.count; f++) if (stats.total[f] > 0) sorted.push(f)
    const byName = (/** @type {number} */ a, /** @type {number} */ b) => rank[a] - rank[b]
    const key = sortKey
    const compare = key === 'name' ? byName : (/** @type {number} */ a, /** @type {number} */ b) => stats[key][a] - stats[key][b] || byName(b, a)
    sorted.sort(descending ? (a, b) => compare(b, a) : compare)
    for (const button of sortButtons) {
      button.setAttribute('aria-sort', button.dataset.sort === sortKey ? (descending ? 'descending' : 'ascending') : 'none')
    }
  }

  /** @param {FunctionRows} view */
  function filterRows (view) {
    const { matches } = view
    rows = matches ? sorted.filter((f) => matches[f]) : sorted
  }

  /** @param {FunctionRows} view */
  function render (view) {
    body.replaceChildren(...rows.slice(0, limit).map((f) => rowFor(view, f)))
    countLabel.textContent = formatCount(rows.length) + (view.matches ? ' matching' : '') + (rows.length === 1 ? ' function' : ' functions')
    moreButton.hidden = rows.length <= limit
  }

  /** @param {FunctionRows} next */
  function update (next) {
    const statsChanged = !view || view.stats !== next.stats
    view = next
    limit = TABLE_PAGE
    if (statsChanged) sortAll(next)
    filterRows(next)
    render(next)
  }

  /** @param {number} f */
  function select (f) {
    selected = f
    for (const tr of body.rows) tr.setAttribute('aria-selected', String(Number(tr.dataset.frame) === f))
  }

  for (const button of sortButtons) {
    button.addEventListener('click', () => {
      if (!view) return
      const key = /** @type {typeof sortKey} */ (button.dataset.sort)
      descending = key === sortKey ? !descending : key !== 'name'
      sortKey = key
      sortAll(view)
      filterRows(view)
      render(view)
    })
  }
  moreButton.addEventListener('click', () => {
    if (!view) return
    limit += TABLE_PAGE
    render(view)
  })
  body.addEventListener('click', (event) => {
    const tr = /** @type {Element} */ (event.target).closest('tr')
    if (tr && tr.dataset.frame) onSelect(Number(tr.dataset.frame))
  })

  return { update, select }
}

/** Each frame's place in the order of names. @param {Frames} frames */
function nameRanks (frames) {
  const collator = new Intl.Collator('en')
  const byCollation = Array.from({ length: frames.count }, (_, f) => f).sort((a, b) => collator.compare(frames.name[a], frames.name[b]) || a - b)
  const rank = new Int32Array(frames.count)
  byCollation.forEach((f, i) => { rank[f] = i })
  return rank
}
