import { resolve } from 'node:path'
import { runCompare } from './command.js'
import { runCompareLoad } from './load-command.js'
import { dynoError } from '../../errors.js'
import { splitWords } from '../../observe/command.js'
import { progressLine, renderLoadComparison, roundLine } from './load-terminal.js'
import { gateLine } from '../../report/gate-line.js'
import { DEFAULT_MAX_TIME_S, ROUND_S } from './stopping.js'
import { renderComparison } from './terminal.js'
import { compareLoadJson } from './json.js'
import { createStyle } from '../../report/style.js'
import { parseFlags } from '../../cli/flags.js'
import { interruptSignal } from '../../cli/io.js'
import { OBSERVING_FLAGS, loadFlag, splitCommand } from '../../cli/observing.js'

/** @satisfies {import('../../cli/flags.js').Command} */
export const command = /** @type {const} */ ({
  name: 'compare',
  usage: 'dyno compare [flags] <a.json> <b.json>\n       dyno compare --load \'<load flags and url with $PORT>\' (--against <git-ref> -- <command> | --a \'<command>\' --b \'<command>\')',
  summary: 'Is b faster, slower, or indistinguishable from a? Saved results, or two versions of a server loaded side by side.',
  details: [
    'With two files: results of dyno micro --json (or --save), or of dyno load --json, compared case by',
    'case (micro, on each run\'s ops/sec) or on per-second request rates (load), with a 95% interval for',
    'the ratio b/a that allows for this machine\'s drift between runs.',
    '',
    'With --load: the server from the working tree and from a checkout of --against (or the commands',
    '--a and --b) are started afresh each round, side by side (PORT=0 each), pinned to one CPU, warmed',
    'up, and loaded at the same time (one at a time when their rates are over 1.5x apart), and compared',
    'round by round on requests per second, p50 and p99 latency, and CPU time per request. Rounds go on',
    'until the 95% interval of the requests-per-second ratio (a confidence sequence, valid however many',
    'rounds are looked at) is within --precision, or --max-time; --rounds n runs exactly n (paired',
    't-test). --fail-if-slower makes it a CI gate (exit code 3). --fresh measures each app\'s first load',
    'instead, one app at a time. --flame profiles both and shows the CPU time per request each',
    'function gained or lost.'
  ].join('\n'),
  flags: [
    { name: 'json', short: 'j', type: 'boolean', description: 'print the comparison as JSON' },
    OBSERVING_FLAGS[0],
    { name: 'against', type: 'string', placeholder: 'git ref', description: 'with --load: the command after -- runs from the working tree (after) and from a temporary checkout of this ref (before)' },
    { name: 'a', type: 'string', placeholder: 'command', description: 'with --load: the command that starts the version before' },
    { name: 'b', type: 'string', placeholder: 'command', description: 'with --load: the command that starts the version after' },
    { name: 'rounds', type: 'integer', min: 2, placeholder: 'n', description: 'with --load: run exactly n rounds of one load of each version (default: rounds until the answer is known, see --precision)' },
    { name: 'precision', type: 'number', max: 50, default: 2.5, placeholder: 'percent', description: 'with --load: run rounds until the 95% interval of the requests-per-second ratio is within ± this, the change is known to within a quarter of its size, or --fail-if-slower is settled' },
    { name: 'max-time', type: 'duration', default: DEFAULT_MAX_TIME_S, placeholder: 'duration', description: 'with --load: start no round that would end after this (the verdict then says what the run could have found)' },
    { name: 'fail-if-slower', type: 'number', max: 99, placeholder: 'percent', description: 'exit with code 3 when after is slower than before by more than this with 95% confidence (requests per second, or each benchmark case\'s ops/sec)' },
    { name: 'fresh', type: 'boolean', description: 'with --load: measure each app\'s first load, cold, one app at a time, with the environment as it is (default: a warmed-up pair each round, PORT=0)' },
    { name: 'pin', type: 'boolean', default: true, description: 'with --load: run both apps on one CPU and the load on the others, where the system allows (Linux, taskset, 2 CPUs or more)' },
    { name: 'flame', type: 'boolean', description: 'with --load: profile both versions and show each function\'s CPU time per request, before and after' },
    // Without --on-port, which compare does not take: said of its own flags, not of the observing commands'.
    ...OBSERVING_FLAGS.filter((f) => !['load', 'on-port', 'pid', 'duration', 'use-open-inspector'].includes(f.name)).map((f) => ({ ...f, description: f.description.replace('with --load or --on-port: ', 'with --load: ') }))
  ],
  examples: [
    'dyno compare .dyno/micro/before.json .dyno/micro/after.json',
    'dyno compare --load \'-c 50 -d 5 http://127.0.0.1:$PORT/\' --against HEAD -- node server.js',
    'dyno compare --load \'-c 50 -d 5 http://127.0.0.1:$PORT/\' --a \'node old.js\' --b \'node new.js\' --flame'
  ]
})

/** The flags that only mean something with --load. */
const LOAD_ONLY = ['against', 'a', 'b', 'rounds', 'precision', 'max-time', 'fresh', 'pin', 'flame', 'listen-timeout', 'stop-grace']

/**
 * @param {string[]} argv
 * @param {import('../../cli/io.js').IO} io
 */
export async function run (argv, io) {
  const [own, target] = splitCommand(argv, command.flags)
  const { values, positionals, given } = parseFlags(command, argv.includes('--') ? own : argv)
  if (values.load !== undefined) return compareLoad(values, positionals, argv.includes('--') ? target : [], io, given)
  const loadOnly = LOAD_ONLY.find((name) => given.has(name))
  if (loadOnly) throw dynoError('DYNO_BAD_FLAG.onlyWithLoad', { flag: loadOnly })
  if (positionals.length !== 2) {
    throw dynoError('DYNO_BAD_ARGUMENTS.twoResults', { count: positionals.length })
  }
  const files = /** @type {[string, string]} */ (positionals)
  const { result, exitCode } = await runCompare({ files, failIfSlower: values['fail-if-slower'] ?? null }, io)
  if (values.json) io.stdout.write(JSON.stringify(result, null, 2) + '\n')
  else io.stdout.write(renderComparison(result, { style: createStyle(io.stdout), names: files }))
  if (result.gate) io.stderr.write(`dyno compare: ${gateLine(result.gate, result.comparisons, createStyle(io.stderr))}\n`)
  return exitCode
}

/**
 * @param {Record<string, any>} values @param {string[]} positionals @param {string[]} target
 * @param {import('../../cli/io.js').IO} io @param {Set<string>} given the flags given on the command line
 */
async function compareLoad (values, positionals, target, io, given) {
  if (positionals.length > 0) throw dynoError('DYNO_BAD_ARGUMENTS.unexpectedWithLoad', { arg: positionals[0] })
  const twoCommands = values.a !== undefined || values.b !== undefined
  if (values.against !== undefined && twoCommands) throw dynoError('DYNO_BAD_FLAG.againstAndAB')
  /** @type {import('./load-command.js').CompareLoadOptions['versions']} */
  let versions
  if (twoCommands) {
    if (values.a === undefined || values.b === undefined) throw dynoError('DYNO_NO_COMMAND.missingVersion', { version: values.a === undefined ? 'a' : 'b' })
    if (target.length > 0) throw dynoError('DYNO_BAD_FLAG.commandAfterAB')
    const [a, b] = [splitWords(values.a), splitWords(values.b)]
    if (a.length === 0 || b.length === 0) throw dynoError('DYNO_NO_COMMAND.emptyVersion', { version: a.length === 0 ? 'a' : 'b' })
    versions = { a, b }
  } else if (values.against !== undefined) {
    if (target.length === 0) throw dynoError('DYNO_NO_COMMAND.against')
    versions = { against: values.against, command: target }
  } else {
    throw dynoError('DYNO_BAD_FLAG.noVersions')
  }
  const fixed = given.has('rounds')
  const open = ['precision', 'max-time'].find((name) => given.has(name))
  if (fixed && open) throw dynoError('DYNO_BAD_FLAG.roundsAndPrecision', { flag: open })
  // Without -d or -a, rounds of a second: long enough to warm up and measure, short enough for many pairs.
  const load = await loadFlag(values.load, io, { duration: fixed || values.fresh ? undefined : ROUND_S })
  if (load.rate !== undefined && values['fail-if-slower'] !== undefined) throw dynoError('DYNO_BAD_FLAG.failIfSlowerWithRate')
  const style = createStyle(io.stdout)
  const interrupt = interruptSignal(io)
  let outcome
  try {
    outcome = await runCompareLoad({
      load,
      versions,
      rounds: fixed ? values.rounds : null,
      precision: values.precision / 100,
      maxTimeMs: values['max-time'] * 1000,
      failIfSlower: values['fail-if-slower'] ?? null,
      fresh: values.fresh === true,
      pin: values.pin !== false,
      flame: values.flame === true,
      listenTimeoutMs: values['listen-timeout'] * 1000,
      stopGraceMs: values['stop-grace'] * 1000,
      out: resolve(io.cwd, values.out),
      outputToStderr: true
    }, {
      cwd: io.cwd,
      env: io.env,
      signal: interrupt.signal,
      onEvent: (event) => {
        if (event.type === 'compare-round' && !values.json) io.stderr.write(style.dim(roundLine(event)))
        else if (event.type === 'compare-progress' && !values.json) io.stderr.write(progressLine(event, style))
        else if (event.type === 'warning') io.stderr.write(style.yellow(`dyno: ${event.message}`) + '\n')
      }
    })
  } finally {
    interrupt.dispose()
  }
  const { result, exitCode } = outcome
  if (values.json) io.stdout.write(JSON.stringify(compareLoadJson(result), null, 2) + '\n')
  else io.stdout.write(renderLoadComparison(result, { style }))
  if (result.failure) io.stderr.write(`dyno compare: ${result.failure.message}\n`)
  if (result.gate) io.stderr.write(`dyno compare: ${gateLine(result.gate, result.comparisons.filter((c) => c.name === 'requests'), createStyle(io.stderr), () => 'requests/sec')}\n`)
  return exitCode
}
