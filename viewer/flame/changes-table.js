/*
 * A differential's functions: each one's self time per request before and
 * after, the biggest change first. It lists the functions that ran only
 * before too, which have no width in the after tree.
 */
import { fineMs } from '../../lib/format.js'
import { formatCount } from '../shared/format.js'
/** @import { Profile } from './profile.js' */

const CHANGES_SHOWN = 200

/**
 * @param {HTMLTableElement} table
 * @param {HTMLElement} countLabel
 * @param {NonNullable<Profile['diff']>} diff
 */
export function renderChanges (table, countLabel, diff) {
  const signed = (/** @type {number} */ ms) => (ms < 0 ? '\u2212' : '+') + fineMs(Math.abs(ms))
  const rows = diff.functions.slice(0, CHANGES_SHOWN).map((f) => {
    const tr = document.createElement('tr')
    const kind = f.change < 0 ? 'shrank' : f.change > 0 ? 'grew' : 'same'
    tr.dataset.kind = kind
    /** @param {string} text @param {string} [className] */
    const cell = (text, className) => {
      const td = tr.insertCell()
      td.textContent = text
      if (className) td.className = className
      return td
    }
    cell(f.name, 'name').title = f.name
    cell(fineMs(f.before), 'num')
    cell(fineMs(f.after), 'num')
    cell(signed(f.change), 'num change-' + kind)
    const where = f.location || '(' + f.category + ')'
    cell('\u2066' + where + '\u2069', 'where').title = where
    return tr
  })
  table.tBodies[0].replaceChildren(...rows)
  const all = diff.functions.length
  countLabel.textContent = formatCount(all) + (all === 1 ? ' function' : ' functions') + (all > CHANGES_SHOWN ? ', the first ' + CHANGES_SHOWN + ' shown' : '')
}
