/* The source panel: an app file's lines, each with the samples it took. */
import { formatCount, formatLocation, formatShare } from '../shared/format.js'
import { CATEGORY, amountText, countText } from './profile.js'
/** @import { Profile } from './profile.js' */

const MAX_SOURCE_LINES = 20_000

/**
 * @param {HTMLElement} title
 * @param {HTMLElement} note
 * @param {HTMLElement} container
 */
export function createSourcePanel (title, note, container) {
  /** @param {number} number @param {string} text @param {number} samples @param {number} max @param {(n: number) => string} amount */
  function lineRow (number, text, samples, max, amount) {
    const row = document.createElement('div')
    row.className = 'source-line' + (samples ? ' hot' : '')
    const no = document.createElement('span')
    no.className = 'no'
    no.textContent = String(number)
    const bar = document.createElement('span')
    bar.className = 'bar'
    if (samples) {
      const fill = document.createElement('i')
      fill.style.width = Math.max(2, samples / max * 100) + '%'
      bar.append(fill)
    }
    const count = document.createElement('span')
    count.className = 'count'
    count.textContent = samples ? amount(samples) : ''
    const code = document.createElement('code')
    code.textContent = text
    row.append(no, bar, count, code)
    return row
  }

  /**
   * shows frame `f`'s file, scrolled to the function
   * @param {Profile} profile
   * @param {number} f
   * @param {number} allSamples
   */
  function show (profile, f, allSamples) {
    const { frames, sources } = profile
    const file = frames.file[f]
    title.textContent = frames.name[f] + ' · ' + formatLocation(file, frames.line[f], frames.column[f])
    const source = file ? sources[String(frames.fileIndex[f])] : undefined
    container.replaceChildren()
    if (!source) {
      note.textContent = !file || frames.category[f] === CATEGORY.native
        ? 'Native code: there is no JavaScript source to show.'
        : 'Only the app\'s own files are embedded in the report; this file is not one of them.'
      return
    }
    const lines = String(source.text).split(/\r\n|\r|\n/)
    const samplesAt = (/** @type {number | string} */ n) => Number(source.lines[n]) || 0
    let max = 0
    let sum = 0
    for (const key of Object.keys(source.lines)) {
      max = Math.max(max, samplesAt(key))
      sum += samplesAt(key)
    }
    note.textContent = amountText(profile.meta)(sum) + ' in this file (' + formatShare(sum, allSamples) + ' of all), by line' +
      (lines.length > MAX_SOURCE_LINES ? '; the first ' + formatCount(MAX_SOURCE_LINES) + ' lines' : '')
    const amount = countText(profile.meta)
    const rows = lines.slice(0, MAX_SOURCE_LINES).map((text, i) => lineRow(i + 1, text, samplesAt(i + 1), max, amount))
    container.append(...rows)
    const current = rows[frames.line[f] - 1]
    if (current) {
      current.classList.add('current')
      container.scrollTop = Math.max(0, current.offsetTop - 3 * current.offsetHeight)
    }
  }

  return { show }
}
