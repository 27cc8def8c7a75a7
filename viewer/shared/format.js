/* Counts, shares, dates and locations as the reports write them; bytes and durations are lib/format.js's, the terminal's. */

const countFormat = new Intl.NumberFormat('en-US')

/** @param {number} n */
export function formatCount (n) {
  return countFormat.format(Math.round(n))
}

/**
 * part of whole as a percentage, with more digits for small shares
 * @param {number} part
 * @param {number} whole
 */
export function formatShare (part, whole) {
  if (!whole || !part) return '0%'
  const p = part / whole * 100
  if (p < 0.01) return '<0.01%'
  return (p >= 10 ? p.toFixed(1) : p.toFixed(2)) + '%'
}

/** @param {string} iso */
export function formatDate (iso) {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return String(iso)
  return date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' })
}

/**
 * file:line:col, or a word saying why there is none
 * @param {string} file
 * @param {number} line
 * @param {number} column
 */
export function formatLocation (file, line, column) {
  if (!file) return '(no source location)'
  if (!line) return file
  return file + ':' + line + (column ? ':' + column : '')
}
