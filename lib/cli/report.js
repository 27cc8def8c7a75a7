import { resolve } from 'node:path'
import { renderFlameFolder } from '../commands/flame-report.js'
import { usageError } from '../errors.js'
import { renderFlameSummary } from '../report/flame-terminal.js'
import { createStyle } from '../report/style.js'
import { readJson } from '../run-folder.js'
import { parseFlags } from './flags.js'

/** @type {import('./flags.js').Command} */
export const command = {
  name: 'report',
  usage: 'dyno report <run folder>',
  summary: 'Render the report of a run folder again (after an upgrade, or from raw data copied elsewhere).',
  flags: [],
  examples: ['dyno report .dyno/2026-11-22T10-00-00-flame']
}

/**
 * @param {string[]} argv
 * @param {import('./io.js').IO} io
 */
export async function run (argv, io) {
  const { positionals } = parseFlags(command, argv)
  if (positionals.length !== 1) throw usageError('DYNO_BAD_RUN_FOLDER', 'give one run folder, like: dyno report .dyno/2026-11-22T10-00-00-flame')
  const folder = resolve(io.cwd, positionals[0])
  const meta = readJson(folder, 'meta.json')
  if (meta.command !== 'flame') throw usageError('DYNO_BAD_RUN_FOLDER', `${positionals[0]} holds a "${meta.command}" run, which has no report to render`)
  const rendered = renderFlameFolder(folder)
  io.stdout.write(renderFlameSummary(rendered, rendered.meta.exit ?? null, createStyle(io.stdout)))
  return 0
}
