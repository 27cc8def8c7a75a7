/**
 * Numbers, bytes and durations as dyno writes them: on the terminal, and in
 * the HTML reports, whose browser code (viewer/) imports this module into its
 * bundle. So it is plain JavaScript and Intl, with nothing of Node's.
 *
 * Bytes are counted in decimal units, as DevTools and network throughput
 * count them: 1 kB is 1000 B, 1 MB is 1000 kB (10^6 B), 1 GB is 10^9 B.
 */

/** Bytes in a megabyte: 10^6. */
export const MB = 1e6

// Made at first use: building it loads ICU's locale data, ~30 ms that a
// `--json` run never needs.
/** @type {Intl.NumberFormat | undefined} */
let grouping

/** `12,345` @param {number} n */
export function count (n) {
  grouping ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
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

/** `8.3 ms`, `152 ms`, `1,234 ms`: a tenth of a millisecond below 100 ms, whole ones above @param {number} n */
export function ms (n) {
  return `${n >= 100 ? count(n) : decimal(n, 1)} ms`
}

/** `17.3`, `0.42`, `0`: a time in ms without its unit, small times keeping two decimals @param {number} ms */
export function fineMsNumber (ms) {
  return ms === 0 ? '0' : decimal(ms, Math.abs(ms) >= 1 ? 1 : 2)
}

/** `17.3 ms`, `0.42 ms`, `0 ms`: small times keep two decimals @param {number} ms */
export function fineMs (ms) {
  return `${fineMsNumber(ms)} ms`
}

/** `0.42 ms`, `8.3 ms`, `152 ms`, `1.50 s`, `12.5 s`; `–` for no time @param {number} ms */
export function shortDuration (ms) {
  if (!(ms >= 0)) return '–'
  if (ms >= 1000) return (ms / 1000).toFixed(ms >= 10_000 ? 1 : 2) + ' s'
  return ms.toFixed(ms >= 100 ? 0 : ms >= 10 ? 1 : 2) + ' ms'
}

/** `812 ms`, `2.5 s`, `3 min 20 s`: how long something took; `unknown` for no time @param {number} ms */
export function duration (ms) {
  if (!(ms >= 0)) return 'unknown'
  if (ms < 1000) return Math.round(ms) + ' ms'
  if (ms < 60_000) return (ms / 1000).toFixed(1) + ' s'
  const minutes = Math.floor(ms / 60_000)
  return minutes + ' min ' + Math.round((ms % 60_000) / 1000) + ' s'
}

/** `812 B`, `12.3 kB`, `-4.5 MB`, `1.2 GB`: three significant digits at most, in decimal units @param {number} n */
export function bytes (n) {
  const units = ['B', 'kB', 'MB', 'GB', 'TB']
  let value = Math.abs(n)
  let i = 0
  while (value >= 1000 && i < units.length - 1) {
    value /= 1000
    i++
  }
  return `${n < 0 ? '-' : ''}${i === 0 ? value : trim(value)} ${units[i]}`
}

/** `+1.2 MB`, `-812 B`, `0 B` @param {number} n */
export function signedBytes (n) {
  return (n > 0 ? '+' : '') + bytes(n)
}

/** `2.5%`, `7.1%`, `45%`: a fraction as a percentage, two significant digits below 10% @param {number} fraction */
export function percent (fraction) {
  const p = fraction * 100
  return `${p >= 10 ? Math.round(p) : Number(p.toPrecision(2))}%`
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
