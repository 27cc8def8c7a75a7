/* Bytes and signed deltas, as the heap report shows them. */
import { formatCount } from '../shared/format.js'

/** `12.3 MB` (decimal units, as the terminal shows them) @param {number} n */
export function formatBytes (n) {
  const units = ['B', 'kB', 'MB', 'GB', 'TB']
  let i = 0
  let value = Math.abs(n)
  while (value >= 1000 && i < units.length - 1) {
    value /= 1000
    i++
  }
  return (n < 0 ? '-' : '') + (i === 0 ? String(value) : String(Number(value.toPrecision(3)))) + ' ' + units[i]
}

/** `+1,234`, `-5`, `0` @param {number} n */
export function formatSigned (n) {
  return (n > 0 ? '+' : '') + formatCount(n)
}

/** `+1.2 MB` @param {number} n */
export function formatSignedBytes (n) {
  return (n > 0 ? '+' : '') + formatBytes(n)
}
