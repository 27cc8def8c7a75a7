import { runMerge } from './command.js'
import { renderGenerators } from './terminal.js'
import { renderLoadResult, renderThresholds } from '../load/terminal.js'
import { parseThresholds } from '../load/thresholds.js'
import { createStyle } from '../../report/style.js'
import { parseFlags } from '../../cli/flags.js'

/** @satisfies {import('../../cli/flags.js').Command} */
export const command = /** @type {const} */ ({
  name: 'merge',
  usage: 'dyno merge [flags] <result.json>...',
  summary: 'One result from the --json results of many generators that made one load together.',
  details: [
    'Each file is what dyno load --json printed on one generator (a pod\'s log will do: the document',
    'is found among its other lines). The latency histograms add up exactly, so the percentiles are',
    'those of one histogram of every request; counts, errors and status codes add up; the per-second',
    'figures add up on the wall clock. It says when segments are missing, twice, or of another split,',
    'when settings differ, when generators started more than a second apart, and when a generator\'s',
    'own CPU set the pace.'
  ].join('\n'),
  flags: [
    { name: 'json', short: 'j', type: 'boolean', description: 'print the merged result as one JSON document, with a line per generator and the warnings' },
    { name: 'latency', short: 'l', type: 'boolean', description: 'print the full latency percentile table' },
    { name: 'fail-on', type: 'string', multiple: true, placeholder: 'thresholds', description: 'exit 3 when a threshold on the merged result is broken: \'p99<200ms,errors=0,rps>5000\' (as dyno load --fail-on)' }
  ],
  examples: [
    'dyno merge gen-0.json gen-1.json gen-2.json',
    'dyno merge --json logs/*.log > load.json',
    'dyno merge --fail-on \'p99<200ms,errors=0\' gen-*.json'
  ]
})

/**
 * @param {string[]} argv
 * @param {import('../../cli/io.js').IO} io
 */
export async function run (argv, io) {
  const { values, positionals, given } = parseFlags(command, argv)
  const thresholds = given.has('fail-on') ? parseThresholds(values['fail-on']) : null
  const { result, exitCode, thresholdLines } = await runMerge({ files: positionals, thresholds }, { cwd: io.cwd, env: io.env })
  const style = createStyle(io.stdout)
  if (values.json) {
    io.stdout.write(JSON.stringify(result, null, 2) + '\n')
  } else {
    io.stdout.write(renderLoadResult(result, { style, percentiles: values.latency === true }) + '\n')
    io.stdout.write(renderGenerators(result.generators, style))
    if (result.thresholds) io.stdout.write(renderThresholds(result.thresholds, style))
  }
  const warn = createStyle(io.stderr)
  for (const warning of result.warnings) io.stderr.write(warn.yellow(`dyno merge: ${warning}`) + '\n')
  for (const line of thresholdLines) io.stderr.write(`dyno merge: ${line}\n`)
  return exitCode
}
