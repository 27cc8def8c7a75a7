/**
 * Number formatting shared by the terminal reports.
 */

const grouping = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** `12,345` @param {number} n */
export function count (n) {
  return grouping.format(n)
}

/** `12,345.68` with `digits` decimals @param {number} n @param {number} [digits] */
export function decimal (n, digits = 2) {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

/** `0.42 ms`: latencies keep microsecond resolution @param {number} ms */
export function milliseconds (ms) {
  return `${decimal(ms, 2)} ms`
}

/** `185k`, `1.2M`: large counts in the summary line @param {number} n */
export function shortCount (n) {
  if (n < 1000) return String(n)
  if (n < 1e6) return `${trim(n / 1e3)}k`
  return `${trim(n / 1e6)}M`
}

/** `12.3 MB` (decimal units, as network throughput is counted) @param {number} n */
export function bytes (n) {
  const units = ['B', 'kB', 'MB', 'GB', 'TB']
  let i = 0
  while (n >= 1000 && i < units.length - 1) {
    n /= 1000
    i++
  }
  return `${i === 0 ? n : trim(n)} ${units[i]}`
}

/** `2.5s`, `10s` @param {number} s */
export function seconds (s) {
  return `${trim(s)}s`
}

/** Three significant digits at most, no trailing zeros. @param {number} n */
function trim (n) {
  return String(Number(n.toPrecision(3)))
}
