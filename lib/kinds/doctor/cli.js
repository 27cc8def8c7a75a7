import { runDoctor } from './command.js'
import { renderDoctorSummary } from './terminal.js'
import { createLiveView } from './live.js'
import { renderLoadResult } from '../load/terminal.js'
import { createStyle } from '../../report/style.js'
import { OBSERVING_FLAGS, observingOptions, parseObservingArgs, runObserving } from '../../cli/observing.js'

/** @satisfies {import('../../cli/flags.js').Command} */
export const command = /** @type {const} */ ({
  name: 'doctor',
  usage: 'dyno doctor [flags] -- <command that runs node>',
  summary: 'What kind of performance problem an app has under load, with the evidence and the command to run next.',
  details: [
    'Starts the command with dyno\'s agent inside (through NODE_OPTIONS, so `npm start` works),',
    'and records the event-loop delay and utilization, CPU, memory, GC pauses, handles and requests',
    'of the process that listens, every sample interval (in a cluster, the worker that answers the most),',
    'and with --load or --on-port what the app still holds after a full GC before and after the load',
    '(not in a cluster: the load goes to the primary).',
    'From the time under load it diagnoses event-loop-blocked, gc-pressure, memory-growth, io-wait',
    'or healthy, and writes .dyno/<time>-doctor/ with report.html. On a terminal it shows the signals live.'
  ].join('\n'),
  flags: [
    ...OBSERVING_FLAGS,
    { name: 'sample-interval', type: 'integer', min: 1, max: 500, maxReason: 'doctor judges each second by the samples that cover it', default: 10, placeholder: 'ms', description: 'milliseconds between samples (1 to 500)' },
    { name: 'json', short: 'j', type: 'boolean', description: 'print one JSON document (diagnoses, load window, figures per signal) instead of the report' }
  ],
  examples: [
    'dyno doctor --load \'-c 100 -d 20 http://127.0.0.1:$PORT/\' -- node server.js',
    'dyno doctor --on-port \'wrk -d 20s http://127.0.0.1:$PORT/\' -- npm start',
    'dyno doctor --json --load \'-d 10 http://127.0.0.1:$PORT/\' -- node server.js > doctor.json'
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
  const live = !json && io.stderr.isTTY ? createLiveView(io.stderr, createStyle(io.stderr)) : null
  /** @type {number | null} */
  let livePid = null
  return runObserving('doctor', io, {
    json,
    // The live view shows the load's progress itself; without it, the usual bar does.
    progress: observing.load !== null && !live,
    start: (commandIO) => runDoctor({ ...observing, sampleIntervalMs: values['sample-interval'], loadFlags: values.load ?? null, outputToStderr: json }, commandIO),
    onEvent: (event) => {
      if (event.type === 'load-progress') live?.loadProgress(event.progress)
      return false
    },
    onAgentData: (data) => {
      if (data.collector !== 'doctor' || !live) return
      livePid ??= data.pid
      if (data.pid === livePid) live.update(data)
    },
    done: () => live?.done(),
    document: (result) => result.rendered.document,
    text: (result, style) => (result.meta.load ? renderLoadResult(result.meta.load, { style }) + '\n' : '') + renderDoctorSummary(result.rendered, result.meta.end, style)
  })
}
