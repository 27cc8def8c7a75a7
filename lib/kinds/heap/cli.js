import { dynoError } from '../../errors.js'
import { runHeap } from './command.js'
import { runHeapDiff } from './diff-command.js'
import { renderHeapRunSummary } from './terminal.js'
import { renderRoundLoads } from '../load/terminal.js'
import { createStyle } from '../../report/style.js'
import { parseFlags } from '../../cli/flags.js'
import { heapJson } from './json.js'
import { OBSERVING_FLAGS, observingOptions, parseObservingArgs, runObserving } from '../../cli/observing.js'

const JSON_FLAG = /** @type {import('../../cli/flags.js').Flag} */ ({ name: 'json', short: 'j', type: 'boolean', description: 'print the result as JSON (schemaVersion, comparison, leaks) instead of tables' })

/** @satisfies {import('../../cli/flags.js').Command} */
export const command = /** @type {const} */ ({
  name: 'heap',
  usage: 'dyno heap [flags] -- <command that runs node>\n       dyno heap diff <a.heapsnapshot> <b.heapsnapshot> [<c.heapsnapshot>]',
  summary: 'What grows in the heap of an app under load, and what keeps it alive.',
  details: [
    'Takes a heap snapshot of the process that listens after a full GC, runs the load, and',
    'snapshots again after each round (--rounds, 2 by default): objects made in the first round',
    'and still alive after the last stand out. It compares them by constructor as DevTools\'',
    'Comparison view does, and names what holds the growth: the variable, the properties, Map or',
    'Set entries, an emitter\'s listeners by event. Writes .dyno/<time>-heap/: the snapshots',
    '(raw/*.heapsnapshot, for DevTools), heap.json and report.html. Without --load or --on-port it',
    'snapshots when the app starts and when it ends. --sampling runs V8\'s sampling heap profiler',
    'during the load instead, and renders the allocations by stack as a flamegraph.',
    '`dyno heap diff` compares snapshots taken elsewhere.'
  ].join('\n'),
  flags: [
    ...OBSERVING_FLAGS,
    { name: 'rounds', type: 'integer', min: 1, default: 2, placeholder: 'n', description: 'how many times the load runs, with a snapshot after each' },
    { name: 'sampling', type: 'boolean', description: 'sample allocations during the load (V8\'s sampling heap profiler) instead of taking snapshots' },
    { name: 'sampling-interval', type: 'integer', min: 64, default: 32768, placeholder: 'bytes', description: 'with --sampling: the mean bytes allocated between two samples' },
    JSON_FLAG
  ],
  examples: [
    'dyno heap --load \'-c 10 -d 10 http://127.0.0.1:$PORT/\' -- node server.js',
    'dyno heap --sampling --load \'-d 10 http://127.0.0.1:$PORT/\' -- node server.js',
    'dyno heap diff Heap-1.heapsnapshot Heap-2.heapsnapshot'
  ]
})

/** @satisfies {import('../../cli/flags.js').Command} */
const diffCommand = /** @type {const} */ ({
  name: 'heap diff',
  usage: 'dyno heap diff <a.heapsnapshot> <b.heapsnapshot> [<c.heapsnapshot>]',
  summary: 'Compare heap snapshots taken elsewhere, oldest first.',
  flags: [
    { name: 'out', type: 'string', default: '.dyno', placeholder: 'folder', description: 'where run folders go' },
    JSON_FLAG
  ],
  examples: ['dyno heap diff before.heapsnapshot after.heapsnapshot']
})

/**
 * The declaration whose help `--help` shows: the diff's, after `diff`.
 * @param {string[]} argv
 */
export function helpFor (argv) {
  return argv[0] === 'diff' ? diffCommand : command
}

/**
 * @param {string[]} argv
 * @param {import('../../cli/io.js').IO} io
 */
export async function run (argv, io) {
  if (argv[0] === 'diff') return runDiff(argv.slice(1), io)
  const { values, target, given } = parseObservingArgs(command, argv)
  // Flags that would do nothing are said, not ignored.
  if (given.has('sampling-interval') && values.sampling !== true) throw dynoError('DYNO_BAD_FLAG.samplingInterval')
  if (given.has('rounds') && values.sampling === true) throw dynoError('DYNO_BAD_FLAG.roundsWithSampling')
  const observing = await observingOptions(values, target, io)
  const json = Boolean(values.json)
  return runObserving('heap', io, {
    json,
    progress: observing.load !== null,
    start: (commandIO) => runHeap({ ...observing, outputToStderr: json, sampling: values.sampling === true, rounds: values.rounds, samplingIntervalBytes: values['sampling-interval'] }, commandIO),
    onEvent: (event) => {
      if (event.type !== 'status') return false
      status(io, event.message)
      return true
    },
    document: (result) => heapJson(result.folder, result.rendered, result.meta),
    text: (result, style) => renderRoundLoads(result.loads, style) + (result.rendered ? renderHeapRunSummary(result.rendered, result.meta.end, style) : '')
  })
}

/**
 * @param {string[]} argv
 * @param {import('../../cli/io.js').IO} io
 */
async function runDiff (argv, io) {
  const { values, positionals } = parseFlags(diffCommand, argv)
  const style = createStyle(io.stdout)
  const { result, exitCode } = await runHeapDiff({ files: positionals, out: values.out }, {
    cwd: io.cwd,
    env: io.env,
    onEvent: (event) => { if (event.type === 'status') status(io, event.message) }
  })
  if (values.json) io.stdout.write(JSON.stringify(heapJson(result.folder, result.rendered, null), null, 2) + '\n')
  else io.stdout.write(renderHeapRunSummary(result.rendered, null, style))
  return exitCode
}

/**
 * What a long step is doing, on a terminal only (a log or a pipe gets the result alone).
 * @param {import('../../cli/io.js').IO} io @param {string} message
 */
function status (io, message) {
  if (io.stderr.isTTY) io.stderr.write(createStyle(io.stderr).dim(`dyno: ${message}`) + '\n')
}
