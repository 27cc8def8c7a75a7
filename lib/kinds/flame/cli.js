import { runFlame } from './command.js'
import { viewProfile } from './view-command.js'
import { dynoError } from '../../errors.js'
import { renderLoadResult } from '../load/terminal.js'
import { renderFlameSummary } from './terminal.js'
import { createStyle } from '../../report/style.js'
import { OBSERVING_FLAGS, observingOptions, parseObservingArgs, runObserving } from '../../cli/observing.js'

/** @satisfies {import('../../cli/flags.js').Command} */
export const command = /** @type {const} */ ({
  name: 'flame',
  usage: 'dyno flame [flags] -- <command that runs node>',
  summary: 'Profile the CPU of an app, under load, and render a flamegraph report.',
  details: [
    'Starts the command with dyno\'s agent inside every Node.js process it runs (through',
    'NODE_OPTIONS, so `npm start` works), profiles the process that listens, and writes',
    '.dyno/<time>-flame/: the profile as .cpuprofile (DevTools), pprof and collapsed stacks,',
    'and flamegraph.html. Without --load or --on-port it profiles until the app exits or Ctrl-C.'
  ].join('\n'),
  flags: [
    ...OBSERVING_FLAGS,
    { name: 'sampling-interval', type: 'integer', min: 50, default: 1000, placeholder: 'µs', description: 'microseconds between CPU samples' },
    { name: 'view', type: 'string', placeholder: 'file.cpuprofile', description: 'render a profile written by node --cpu-prof or DevTools, instead of running anything' }
  ],
  examples: [
    'dyno flame --load \'-c 100 -d 10 http://127.0.0.1:$PORT/\' -- node server.js',
    'dyno flame --on-port \'wrk -d 10s http://127.0.0.1:$PORT/\' -- npm start',
    'dyno flame -- node script.js',
    'dyno flame --view CPU.20261122.cpuprofile'
  ]
})

/**
 * @param {string[]} argv
 * @param {import('../../cli/io.js').IO} io
 */
export async function run (argv, io) {
  const { values, target } = parseObservingArgs(command, argv)
  if (values.view !== undefined) {
    if (target.length > 0) throw dynoError('DYNO_BAD_FLAG.viewTakesNoCommand')
    const { result, exitCode } = viewProfile({ file: values.view, out: values.out }, io)
    io.stdout.write(renderFlameSummary(result.rendered, null, createStyle(io.stdout)))
    return exitCode
  }
  const observing = await observingOptions(values, target, io)
  return runObserving('flame', io, {
    json: false,
    progress: observing.load !== null,
    start: (commandIO) => runFlame({ ...observing, samplingIntervalUs: values['sampling-interval'] }, commandIO),
    document: () => null,
    text: (result, style) => (result.meta.load ? renderLoadResult(result.meta.load, { style }) + '\n' : '') + (result.rendered ? renderFlameSummary(result.rendered, result.meta.end, style) : '')
  })
}
