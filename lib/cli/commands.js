import { KINDS } from '../kinds.js'

/**
 * The command surface: a command per kind of run, and `dyno report`, which
 * renders any of their run folders again. Each command's module is loaded
 * only when it runs.
 * @type {{ name: string, summary: string, cli: () => Promise<import('../kinds.js').CliModule> }[]}
 */
export const commands = [
  ...KINDS,
  { name: 'report', summary: 'render the report of a run folder again', cli: () => import('./report.js') }
]
