import { runReport } from '../commands/report.js'
import { usageError } from '../errors.js'
import { renderDoctorSummary } from '../report/doctor-terminal.js'
import { renderAsyncSummary } from '../report/async-terminal.js'
import { renderLoadComparison } from '../report/compare-load-terminal.js'
import { renderFlameSummary } from '../report/flame-terminal.js'
import { renderHeapRunSummary } from '../report/heap-terminal.js'
import { createStyle } from '../report/style.js'
import { parseFlags } from './flags.js'

/** @satisfies {import('./flags.js').Command} */
export const command = /** @type {const} */ ({
  name: 'report',
  usage: 'dyno report <run folder>',
  summary: 'Render the report of a run folder again (after an upgrade, or from raw data copied elsewhere).',
  flags: [],
  examples: ['dyno report .dyno/2026-11-22T10-00-00-flame']
})

/**
 * What the terminal shows of each kind of run.
 * @type {Record<string, (rendered: any, meta: import('../run-folder.js').RunMeta, style: import('../report/style.js').Style) => string>}
 */
const SUMMARIES = {
  flame: (rendered, meta, style) => renderFlameSummary(rendered, meta.end, style),
  doctor: (rendered, meta, style) => renderDoctorSummary(rendered, meta.end, style),
  heap: (rendered, meta, style) => renderHeapRunSummary(rendered, meta.end, style),
  async: (rendered, meta, style) => renderAsyncSummary(rendered, style),
  compare: (rendered, meta, style) => renderLoadComparison(rendered, { style })
}

/**
 * @param {string[]} argv
 * @param {import('./io.js').IO} io
 */
export async function run (argv, io) {
  const { positionals } = parseFlags(command, argv)
  if (positionals.length !== 1) throw usageError('DYNO_BAD_RUN_FOLDER', 'give one run folder, like: dyno report .dyno/2026-11-22T10-00-00-flame')
  const { result, exitCode } = await runReport({ folder: positionals[0] }, io)
  io.stdout.write(SUMMARIES[result.kind](result.rendered, result.meta, createStyle(io.stdout)))
  return exitCode
}
