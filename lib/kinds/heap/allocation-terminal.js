import { pathToFileURL } from 'node:url'
import { bytes, decimal } from '../../format.js'

/**
 * The end of a `dyno heap --sampling` run: the functions that allocated the
 * most, and where the allocation flamegraph is.
 * @param {{ top: { name: string, location: string, category: string, bytes: number, percent: number }[], html: string, bytes: number }} allocations
 * @param {{ how: string } | null} end
 * @param {import('../../report/style.js').Style} style
 */
export function renderAllocationSummary (allocations, end, style) {
  const out = []
  if (allocations.bytes === 0) {
    out.push('No allocation was sampled.')
  } else {
    out.push(style.bold(`Allocations sampled: ${bytes(allocations.bytes)}, by the functions that allocated the most`))
    const rows = allocations.top.map((f) => [`${decimal(f.percent, 1)}%`, bytes(f.bytes), f.name, f.location || `(${f.category})`])
    const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c].length)))
    for (const r of rows) out.push(`  ${r[0].padStart(widths[0])}  ${r[1].padStart(widths[1])}  ${r[2].padEnd(widths[2])}  ${style.dim(r[3])}`)
  }
  if (end) out.push('', `The app ${end.how}.`)
  out.push('', `Report: ${pathToFileURL(allocations.html).href}`)
  return out.join('\n') + '\n'
}
