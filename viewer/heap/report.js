/* The heap report: its state, its actions, and what each part of the page draws. */
import { bytes, duration, signedBytes } from '../../lib/format.js'
import { formatCount, formatDate } from '../shared/format.js'
import { renderHeader } from '../shared/header.js'
import { createStore } from '../shared/state.js'
import { applyTheme, preferredTheme, themeActions } from '../shared/theme.js'
import { renderComparison, sortRows } from './comparison.js'
import { renderLeaks } from './paths.js'
/** @import { Column, Details } from './comparison.js' */

/**
 * @typedef {{ sortBy: Column, descending: boolean, search: string, expanded: string | null, theme: 'dark' | 'light' }} HeapState
 */

export function startReport () {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id))
  const data = JSON.parse(/** @type {string} */ ($('heap-data').textContent))
  const { analysis } = data
  const rows = analysis.comparison
  const growing = new Set(analysis.growing)
  const details = new Map(analysis.details.map((/** @type {Details} */ d) => [d.name, d]))

  const store = createStore(/** @type {HeapState} */ ({ sortBy: 'sizeDelta', descending: true, search: '', expanded: null, theme: preferredTheme() }), {
    ...themeActions,
    /** @param {HeapState} state @param {Column} column */
    sort: (state, column) => ({ sortBy: column, descending: state.sortBy === column ? !state.descending : column !== 'name' }),
    /** @param {HeapState} state @param {string} text */
    search: (state, text) => ({ search: text }),
    /** @param {HeapState} state @param {string} name */
    toggle: (state, name) => ({ expanded: state.expanded === name ? null : name })
  })

  const first = analysis.snapshots[0]
  const last = analysis.snapshots[analysis.snapshots.length - 1]
  /** @type {[string, string][]} */
  const facts = [
    ['started', formatDate(data.startedAt)],
    ['snapshots', String(analysis.snapshots.length)],
    ['heap', bytes(first.size) + ' → ' + bytes(last.size) + ' (' + signedBytes(last.size - first.size) + ')'],
    ['objects', formatCount(first.nodes) + ' → ' + formatCount(last.nodes)],
    ['Node.js', data.node || 'unknown']
  ]
  renderHeader({ title: $('title'), facts: $('facts') }, 'dyno heap', data.title, facts)
  renderLeaks($('leaks'), analysis.leaks, analysis.snapshots.length)
  $('leaks-count').textContent = analysis.leaks.length ? '(' + analysis.leaks.length + ')' : ''
  $('compared').textContent = analysis.snapshots.length > 2 ? '(first and last snapshot; paths of the objects made in the first round and still alive)' : '(first and last snapshot)'
  const timings = $('snapshots').querySelector('tbody')
  analysis.snapshots.forEach((/** @type {{ file: string, size: number, nodes: number }} */ snapshot, /** @type {number} */ i) => {
    const timing = data.timings[i]
    const row = /** @type {HTMLTableSectionElement} */ (timings).insertRow()
    const name = snapshot.file.split(/[\\/]/).pop() || snapshot.file
    for (const text of [timing ? timing.label : name, bytes(snapshot.size) + ' in ' + formatCount(snapshot.nodes) + ' objects', timing ? 'paused the app ' + duration(timing.ms) + ' (GC ' + duration(timing.gcMs) + ')' : '']) {
      row.insertCell().textContent = text
    }
  })

  const body = /** @type {HTMLTableSectionElement} */ ($('comparison').querySelector('tbody'))
  store.view(['sortBy', 'descending', 'search', 'expanded'], (state) => {
    const shown = sortRows(rows, state.sortBy, state.descending, state.search)
    renderComparison(body, shown, { expanded: state.expanded, growing, details, onToggle: store.actions.toggle })
    $('shown').textContent = formatCount(shown.length) + ' of ' + formatCount(rows.length) + ' constructors'
    for (const button of document.querySelectorAll('#comparison th button')) {
      const column = /** @type {HTMLElement} */ (button).dataset.sort
      if (column === state.sortBy) button.setAttribute('aria-sort', state.descending ? 'descending' : 'ascending')
      else button.removeAttribute('aria-sort')
    }
  })
  store.view(['theme'], (state) => applyTheme(state.theme, $('theme')))

  for (const button of document.querySelectorAll('#comparison th button')) {
    button.addEventListener('click', () => store.actions.sort(/** @type {any} */ (/** @type {HTMLElement} */ (button).dataset.sort)))
  }
  const search = /** @type {HTMLInputElement} */ ($('search'))
  search.addEventListener('input', () => store.actions.search(search.value))
  document.addEventListener('keydown', (event) => {
    if (event.key === '/' && document.activeElement !== search) {
      event.preventDefault()
      search.focus()
    }
  })
  $('theme').addEventListener('click', () => store.actions.toggleTheme())
  store.start()
  return { dynoHeap: { get state () { return store.state }, actions: store.actions } }
}
