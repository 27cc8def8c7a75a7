import { runCompare } from '../commands/compare.js'
import { usageError } from '../errors.js'
import { renderComparison } from '../report/compare-terminal.js'
import { createStyle } from '../report/style.js'
import { parseFlags } from './flags.js'

/** @satisfies {import('./flags.js').Command} */
export const command = /** @type {const} */ ({
  name: 'compare',
  usage: 'dyno compare [flags] <a.json> <b.json>',
  summary: 'Is b faster, slower, or indistinguishable from a? Case by case, with 95% confidence intervals.',
  details: [
    'Takes two results of dyno micro --json (or --save), or two of dyno load --json. Micro results are',
    'compared case by case on their per-process ops/sec; load results on their per-second request',
    'rates. Both with Welch\'s t-test and a 95% interval for the ratio b/a.'
  ].join('\n'),
  flags: [
    { name: 'json', short: 'j', type: 'boolean', description: 'print the comparison as JSON' }
  ],
  examples: [
    'dyno compare .dyno/micro/before.json .dyno/micro/after.json',
    'dyno load --json http://127.0.0.1:3000/ > a.json; (change the server); dyno load --json http://127.0.0.1:3000/ > b.json; dyno compare a.json b.json'
  ]
})

/**
 * @param {string[]} argv
 * @param {import('./io.js').IO} io
 */
export async function run (argv, io) {
  const { values, positionals } = parseFlags(command, argv)
  if (positionals.length !== 2) {
    throw usageError('DYNO_BAD_FILE', `dyno compare takes two result files, a then b; got ${positionals.length}`)
  }
  const files = /** @type {[string, string]} */ (positionals)
  const { result, exitCode } = await runCompare({ files }, io)
  if (values.json) io.stdout.write(JSON.stringify(result, null, 2) + '\n')
  else io.stdout.write(renderComparison(result, { style: createStyle(io.stdout), names: files }))
  return exitCode
}
