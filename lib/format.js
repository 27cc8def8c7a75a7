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

/** `812 ns`, `3.91 µs`, `1.23 ms`, `1.2 s`: time per call @param {number} ns */
export function nanoseconds (ns) {
  if (ns < 1e3) return `${trim(ns)} ns`
  if (ns < 1e6) return `${trim(ns / 1e3)} µs`
  if (ns < 1e9) return `${trim(ns / 1e6)} ms`
  return `${trim(ns / 1e9)} s`
}

/** `1.04x`, `38.6x`, `412x`, and two significant digits below 0.1x (`0.0011x`, not `0.00x`) @param {number} ratio */
export function times (ratio) {
  if (!Number.isFinite(ratio)) return '∞'
  if (ratio > 0 && ratio < 0.1) return `${ratio.toPrecision(2)}x`
  return `${ratio >= 100 ? Math.round(ratio) : ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)}x`
}

/** `p < 0.001`, `p = 0.41` @param {number} p */
export function pValue (p) {
  if (Number.isNaN(p)) return 'p = n/a'
  return p < 0.001 ? 'p < 0.001' : `p = ${p < 0.01 ? p.toFixed(3) : p.toFixed(2)}`
}
