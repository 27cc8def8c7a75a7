import { count, decimal } from '../../format.js'

/**
 * The CPU differential on the terminal: the functions whose self time per
 * request changed most, the biggest win first, and the CPU per request of
 * each version.
 */

/** `17.3 ms`, `0.42 ms`, `0 ms`: small times keep two decimals @param {number} ms */
export function msText (ms) {
  return `${ms === 0 ? '0' : decimal(ms, Math.abs(ms) >= 1 ? 1 : 2)} ms`
}

/** `−16.9 ms`, `+0.3 ms`, with a real minus sign @param {number} ms */
function signedMs (ms) {
  return `${ms < 0 ? '\u2212' : '+'}${msText(Math.abs(ms))}`
}

/**
 * @param {import('./flame-diff.js').FlameDiff} diff
 * @param {{ style: import('../../report/style.js').Style, limit?: number }} options
 * @returns {string}
 */
export function renderFlameDiff (diff, { style, limit = 10 }) {
  const { total, requests } = diff
  const out = [style.bold('CPU per request, before → after (self time)')]
  // A change too small to print is no change.
  const shown = diff.functions.filter((f) => msText(Math.abs(f.change)) !== '0.00 ms').slice(0, limit)
  if (shown.length === 0) out.push('  No function changed its CPU time per request.')
  const rows = shown.map((f) => ({
    name: f.name,
    before: msText(f.before),
    after: msText(f.after),
    change: `(${signedMs(f.change)})`,
    where: f.location || `(${f.category})`,
    paint: f.change < 0 ? style.green : style.red
  }))
  /** @param {'name' | 'before' | 'after' | 'change'} key */
  const width = (key) => Math.max(0, ...rows.map((r) => r[key].length))
  const widths = { name: width('name'), before: width('before'), after: width('after'), change: width('change') }
  for (const r of rows) {
    const times = `${r.before.padStart(widths.before)} → ${r.after.padStart(widths.after)} per request`
    out.push(`  ${r.name.padEnd(widths.name)}  ${times}  ${r.paint(r.change.padEnd(widths.change))}  ${style.dim(r.where)}`)
  }
  const share = total.before > 0 ? `, ${total.change < 0 ? '\u2212' : '+'}${decimal(Math.abs(total.change / total.before) * 100, 0)}%` : ''
  const paint = total.change < 0 ? style.green : style.red
  out.push('', `Total CPU  ${msText(total.before)} → ${msText(total.after)} per request  ${paint(`(${signedMs(total.change)}${share})`)}`)
  out.push(style.dim(`over ${count(requests.before)} requests before and ${count(requests.after)} after`))
  return out.join('\n') + '\n'
}
