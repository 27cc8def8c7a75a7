import { count, decimal, fineMs } from '../../format.js'

/**
 * The CPU differential on the terminal: the functions whose self time per
 * request changed most, the biggest win first, and the CPU per request of
 * each version.
 */

/** `−16.9 ms`, `+0.3 ms`, with a real minus sign @param {number} ms */
function signedMs (ms) {
  return `${ms < 0 ? '\u2212' : '+'}${fineMs(Math.abs(ms))}`
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
  const shown = diff.functions.filter((f) => fineMs(Math.abs(f.change)) !== '0.00 ms').slice(0, limit)
  if (shown.length === 0) out.push('  No function changed its CPU time per request.')
  const rows = shown.map((f) => ({
    name: f.name,
    before: fineMs(f.before),
    after: fineMs(f.after),
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
  out.push('', `Total CPU  ${fineMs(total.before)} → ${fineMs(total.after)} per request  ${paint(`(${signedMs(total.change)}${share})`)}`)
  out.push(style.dim(`over ${count(requests.before)} requests before and ${count(requests.after)} after`))
  return out.join('\n') + '\n'
}
