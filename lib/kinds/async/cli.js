import { DEFAULT_MAX_RATE, DEFAULT_SAMPLE, runAsync } from './command.js'
import { renderAsyncSummary } from './terminal.js'
import { renderLoadResult } from '../load/terminal.js'
import { OBSERVING_FLAGS, observingOptions, parseObservingArgs, runObserving } from '../../cli/observing.js'

/** @satisfies {import('../../cli/flags.js').Command} */
export const command = /** @type {const} */ ({
  name: 'async',
  usage: 'dyno async [flags] -- <command that runs node>',
  summary: 'Where an app\'s requests spend their time waiting: serial awaits, awaits in loops, unbounded fan-outs.',
  details: [
    'Starts the command with dyno\'s agent inside every Node.js process it runs, and traces one',
    'HTTP request in --sample, at most --max-rate a second: each async operation made on its behalf',
    '(promises, timers, sockets, files, lookups), where the app\'s code made it, and when it was',
    'made, settled and continued.',
    'Writes .dyno/<time>-async/: the trace (async.jsonl), the findings as JSON (async.json) and',
    'report.html, with the waterfall of the typical and the slowest request.'
  ].join('\n'),
  flags: [
    ...OBSERVING_FLAGS,
    { name: 'sample', type: 'integer', min: 1, default: DEFAULT_SAMPLE, placeholder: 'N', description: 'trace one request in N (1: every request), besides the first 25 that start while none is traced; the others are only counted' },
    { name: 'max-rate', type: 'integer', min: 0, default: DEFAULT_MAX_RATE, placeholder: 'N', description: 'trace at most N requests a second, whatever --sample says (0: no limit)' },
    { name: 'json', short: 'j', type: 'boolean', description: 'print the findings and critical paths as one JSON document instead of the summary (the app\'s own output goes to stderr)' }
  ],
  examples: [
    'dyno async --load \'-c 10 -d 10 http://127.0.0.1:$PORT/\' -- node server.js',
    'dyno async --sample 1 --max-rate 0 --load \'-a 50 http://127.0.0.1:$PORT/orders\' -- npm start',
    'dyno async --on-port \'curl -s http://127.0.0.1:$PORT/\' --json -- node server.js'
  ]
})

/**
 * @param {string[]} argv
 * @param {import('../../cli/io.js').IO} io
 */
export async function run (argv, io) {
  const { values, target } = parseObservingArgs(command, argv)
  const observing = await observingOptions(values, target, io)
  const json = values.json === true
  return runObserving('async', io, {
    json,
    progress: observing.load !== null,
    start: (commandIO) => runAsync({ ...observing, sample: values.sample, maxRate: values['max-rate'], outputToStderr: json }, commandIO),
    document: (result) => ({ ...result.rendered.result, folder: result.folder, report: result.rendered.html }),
    text: (result, style) => (result.meta.load ? renderLoadResult(result.meta.load, { style }) + '\n' : '') + renderAsyncSummary(result.rendered, style)
  })
}
