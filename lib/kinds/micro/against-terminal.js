import { MIN_ROUNDS } from './versions.js'
import { comparisonTable, verdictLines } from '../../report/comparison-table.js'
import { failureText } from './terminal.js'

/** @typedef {import('../../report/style.js').Style} Style */

/**
 * dyno micro --against.
 * @param {import('./types.js').AgainstResult} result
 * @param {{ style: Style }} options
 */
export function renderVersions (result, { style }) {
  const ref = `${result.before.ref} (${result.before.commit.slice(0, 10)})`
  const out = []
  for (const report of result.files) {
    const entries = result.comparisons.filter((e) => e.file === report.file)
    const ran = Math.max(0, ...entries.map((e) => e.rounds))
    const rounds = ran === result.settings.rounds ? `${ran} rounds` : `${ran} of ${result.settings.rounds} rounds`
    out.push(style.bold(`${report.file}: the working tree against ${ref}, side by side in ${rounds}`))
    if (report.error) {
      out.push(style.red(`  could not run the file ${report.error.version === 'before' ? `at ${result.before.ref}` : 'in the working tree'} ${failureText(report.error)}`), '')
      continue
    }
    if (entries.length === 0) out.push(style.yellow(`  fewer than ${MIN_ROUNDS} rounds ran: too few to compare, no verdict`))
    if (entries.length > 0) {
      out.push(comparisonTable(entries, { labels: [result.before.ref, 'now'], unit: 'ops/sec', style }))
      out.push(style.dim(`now / ${result.before.ref}: the geometric mean of the per-round ratios of each case's two versions, with its 95% interval (paired t-test on the logs).`))
      out.push(...verdictLines(entries, 'the working tree', style))
    }
    for (const name of report.onlyIn.after) out.push(style.yellow(`${name}: declared in the working tree only; not compared`))
    for (const name of report.onlyIn.before) out.push(style.yellow(`${name}: declared at ${result.before.ref} only; not compared`))
    out.push('')
  }
  return out.join('\n')
}
