/*
 * The functions table, as DevTools' Bottom-Up tab: one row per function with
 * its self and total samples (recursion counted once), sortable, narrowed by
 * the search. Only the first rows are in the DOM; "Show more" adds more.
 */
/* exported createFunctionTable */
/* global formatCount, formatShare, formatLocation */

const TABLE_PAGE = 100
const KIND_LABELS = ['app', 'deps', 'core', 'native', 'gc', 'program']
const TIER_SHORT_NAMES = ['', 'interpreted', 'Sparkplug', 'Maglev', 'Turbofan']

function createFunctionTable (table, countLabel, moreButton, onSelect) {
  const body = table.tBodies[0]
  const sortButtons = [...table.tHead.querySelectorAll('button[data-sort]')]
  let sortKey = 'self'
  let descending = true
  let limit = TABLE_PAGE
  let rows = []
  let view = null
  let selected = -1
  let nameRank = null
  let sorted = []

  function cell (tr, text, className) {
    const td = tr.insertCell()
    td.textContent = text
    if (className) td.className = className
    return td
  }

  function sampleCell (tr, samples, all) {
    const td = cell(tr, formatShare(samples, all) + ' ', 'num')
    const count = document.createElement('span')
    count.className = 'muted'
    count.textContent = formatCount(samples)
    const bar = document.createElement('i')
    bar.className = 'cell-bar'
    bar.style.width = Math.min(100, samples / all * 100) + '%'
    td.append(count, bar)
  }

  function rowFor (f) {
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

  /** Every function with samples, in the table's order; a search then only filters it. */
  function sortAll () {
    const { frames, stats } = view
    if (!nameRank) {
      // Sorting by name compares ranks: a collator on every comparison of 30k rows takes 100 ms.
      const collator = new Intl.Collator('en')
      const byCollation = Array.from({ length: frames.count }, (_, f) => f).sort((a, b) => collator.compare(frames.name[a], frames.name[b]) || a - b)
      nameRank = new Int32Array(frames.count)
      byCollation.forEach((f, rank) => { nameRank[f] = rank })
    }
    sorted = []
    for (let f = 0; f < frames.count; f++) if (stats.total[f] > 0) sorted.push(f)
    const byName = (a, b) => nameRank[a] - nameRank[b]
    const compare = sortKey === 'name' ? byName : (a, b) => stats[sortKey][a] - stats[sortKey][b] || byName(b, a)
    sorted.sort(descending ? (a, b) => compare(b, a) : compare)
    for (const button of sortButtons) {
      button.setAttribute('aria-sort', button.dataset.sort === sortKey ? (descending ? 'descending' : 'ascending') : 'none')
    }
  }

  function filterRows () {
    const { matches } = view
    rows = matches ? sorted.filter((f) => matches[f]) : sorted
  }

  function render () {
    body.replaceChildren(...rows.slice(0, limit).map(rowFor))
    countLabel.textContent = formatCount(rows.length) + (view.matches ? ' matching' : '') + (rows.length === 1 ? ' function' : ' functions')
    moreButton.hidden = rows.length <= limit
  }

  /** next: { frames, stats, matches, all, tiersKnown } */
  function update (next) {
    const statsChanged = !view || view.stats !== next.stats
    view = next
    limit = TABLE_PAGE
    if (statsChanged) sortAll()
    filterRows()
    render()
  }

  function select (f) {
    selected = f
    for (const tr of body.rows) tr.setAttribute('aria-selected', String(Number(tr.dataset.frame) === f))
  }

  for (const button of sortButtons) {
    button.addEventListener('click', () => {
      const key = button.dataset.sort
      descending = key === sortKey ? !descending : key !== 'name'
      sortKey = key
      sortAll()
      filterRows()
      render()
    })
  }
  moreButton.addEventListener('click', () => {
    limit += TABLE_PAGE
    render()
  })
  body.addEventListener('click', (event) => {
    const tr = event.target.closest('tr')
    if (tr && tr.dataset.frame) onSelect(Number(tr.dataset.frame))
  })

  return { update, select }
}
