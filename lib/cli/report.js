import { runReport } from '../commands/report.js'
import { dynoError } from '../errors.js'
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
 * @param {string[]} argv
 * @param {import('./io.js').IO} io
 */
export async function run (argv, io) {
  const { positionals } = parseFlags(command, argv)
  if (positionals.length !== 1) throw dynoError('DYNO_BAD_ARGUMENTS.oneRunFolder')
  const { result, exitCode } = await runReport({ folder: positionals[0] }, io)
  io.stdout.write(result.summarize(result.rendered, result.meta, createStyle(io.stdout)))
  return exitCode
}
