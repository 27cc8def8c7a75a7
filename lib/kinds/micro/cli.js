import { basename, relative } from 'node:path'
import { runMicro } from './command.js'
import { runMicroAgainst } from './against-command.js'
import { dynoError } from '../../errors.js'
import { DEFAULTS, QUICK, microSettings } from '../../micro/settings.js'
import { failureLine, renderMicroFile, roundLine } from './terminal.js'
import { createStyle } from '../../report/style.js'
import { renderVersions } from './against-terminal.js'
import { gateLine } from '../../report/gate-line.js'
import { parseFlags } from '../../cli/flags.js'
import { interruptSignal } from '../../cli/io.js'

/** @satisfies {import('../../cli/flags.js').Command} */
export const command = /** @type {const} */ ({
  name: 'micro',
  usage: 'dyno micro [flags] <file...>',
  summary: 'Micro-benchmarks: each case in fresh processes, compared with a significance test, with V8 optimization status.',
  details: [
    'A benchmark file declares cases with bench(name, fn) from dyno/micro. Each case runs in its own',
    'processes, one per round; the processes of a round take their samples side by side, in',
    'alternating slices. ± and the comparisons treat the process as the unit of replication',
    '(per-round ratios to the fastest case, Student\'s t-test on their logs, 95% intervals).'
  ].join('\n'),
  flags: [
    { name: 'rounds', short: 'r', type: 'integer', min: 2, default: DEFAULTS.rounds, placeholder: 'n', description: 'rounds, each with a fresh process per case' },
    { name: 'warmup', type: 'duration', default: DEFAULTS.warmup, placeholder: 'seconds', description: 'warm-up in each process before sampling, in CPU time (0.1, 100ms)' },
    { name: 'time', short: 't', type: 'duration', default: DEFAULTS.time, placeholder: 'seconds', description: 'sampling time in each process, in slices of 10 ms' },
    { name: 'quick', short: 'q', type: 'boolean', description: `less precision, less time: ${QUICK.rounds} rounds, ${QUICK.time * 1000} ms sampling per process` },
    { name: 'timeout', type: 'duration', default: DEFAULTS.timeout, placeholder: 'seconds', description: 'stop a case\'s process that takes longer than this to answer: load and warm up, or one slice (a case that never settles)' },
    { name: 'json', short: 'j', type: 'boolean', description: 'print one JSON document with every sample instead of the report' },
    { name: 'save', short: 's', type: 'string', placeholder: 'name', description: 'also add the JSON document to the runs saved as .dyno/micro/<name>.json, for dyno compare' },
    { name: 'against', type: 'string', placeholder: 'git ref', description: 'compare each case with its version at this git ref (a temporary checkout), both in the same rounds: faster, slower or indistinguishable' },
    { name: 'fail-if-slower', type: 'number', max: 99, placeholder: 'percent', description: 'with --against: exit with code 3 when a case is slower than at the ref by more than this with 95% confidence' }
  ],
  examples: [
    'dyno micro examples/micro/divide-by-and-sum.js',
    'dyno micro --quick bench/*.bench.js',
    'dyno micro --against HEAD bench.js          # your uncommitted change against the last commit',
    'dyno micro --save before bench.js && dyno micro --save after bench.js',
    'dyno compare .dyno/micro/before.json .dyno/micro/after.json'
  ]
})

/**
 * @param {string[]} argv
 * @param {import('../../cli/io.js').IO} io
 */
export async function run (argv, io) {
  const { values, positionals, given } = parseFlags(command, argv)
  /** @param {'rounds' | 'warmup' | 'time' | 'timeout'} name */
  const chosen = (name) => (given.has(name) ? values[name] : undefined)
  const settings = microSettings({ rounds: chosen('rounds'), warmup: chosen('warmup'), time: chosen('time'), timeout: chosen('timeout'), quick: values.quick })
  const interrupt = interruptSignal(io)
  try {
    if (values.against !== undefined) return await against(positionals, settings, values, io, interrupt.signal)
    if (values['fail-if-slower'] !== undefined) throw dynoError('DYNO_BAD_FLAG.failIfSlowerWithoutAgainst')
    const printer = microPrinter({ stdout: io.stdout, stderr: io.stderr, cwd: io.cwd, json: values.json === true })
    const { result, exitCode } = await runMicro({ files: positionals, settings, save: values.save ?? null }, {
      cwd: io.cwd,
      env: io.env,
      signal: interrupt.signal,
      onEvent: printer.onEvent
    })
    printer.finish(result)
    return exitCode
  } finally {
    interrupt.dispose()
  }
}

/**
 * @param {string[]} files
 * @param {import('../../micro/runner.js').MicroSettings} settings
 * @param {Record<string, any>} values
 * @param {import('../../cli/io.js').IO} io
 * @param {AbortSignal} signal
 */
async function against (files, settings, values, io, signal) {
  if (values.save !== undefined) throw dynoError('DYNO_BAD_FLAG.saveAndAgainst')
  const showRounds = !values.json && io.stderr.isTTY === true
  const { result, exitCode } = await runMicroAgainst({ files, settings, against: values.against, failIfSlower: values['fail-if-slower'] ?? null }, {
    cwd: io.cwd,
    env: io.env,
    signal,
    onEvent: showRounds ? (event) => { if (event.type === 'micro-round') io.stderr.write(roundLine(event.progress, io.cwd)) } : undefined
  })
  if (showRounds) io.stderr.write('\r\x1b[2K')
  if (values.json) io.stdout.write(JSON.stringify(result, null, 2) + '\n')
  else io.stdout.write(renderVersions(result, { style: createStyle(io.stdout) }))
  for (const f of result.failures) io.stderr.write(`dyno micro: ${failureLine(f)}\n`)
  if (result.gate) io.stderr.write(`dyno micro: ${gateLine(result.gate, result.comparisons, createStyle(io.stderr))}\n`)
  return exitCode
}

/**
 * Writes dyno micro's output as the run goes: the round on a terminal, each
 * file's report when it is done; at the end the JSON document, where the
 * run was saved, and what failed. For the CLI and for a benchmark file that
 * runs itself.
 * @param {{ stdout: NodeJS.WritableStream & { isTTY?: boolean }, stderr: NodeJS.WritableStream & { isTTY?: boolean }, cwd: string, json: boolean }} out
 */
export function microPrinter ({ stdout, stderr, cwd, json }) {
  const style = createStyle(stdout)
  const showRounds = !json && stderr.isTTY === true
  return {
    /** @param {import('../../commands/io.js').CommandEvent} event */
    onEvent (event) {
      if (event.type === 'micro-round' && showRounds) stderr.write(roundLine(event.progress, cwd))
      if (event.type !== 'micro-file') return
      if (showRounds) stderr.write('\r\x1b[2K')
      if (!json) stdout.write(renderMicroFile(event.report, { style, cwd }) + '\n')
    },
    /** @param {import('./types.js').MicroOutcome} outcome */
    finish (outcome) {
      if (json) stdout.write(JSON.stringify(outcome.document, null, 2) + '\n')
      if (outcome.saved) stderr.write(savedLine(outcome.saved, cwd) + '\n')
      for (const f of outcome.failures) stderr.write(`dyno micro: ${failureLine(f)}\n`)
    }
  }
}

/** @param {NonNullable<import('./types.js').MicroOutcome['saved']>} saved @param {string} cwd */
function savedLine ({ path, run }, cwd) {
  const where = relative(cwd, path)
  if (run === 1) return `saved to ${where} (a later --save ${basename(path, '.json')} adds its run to this one)`
  return `added to ${where}: run ${run} under this name (dyno compare takes its runs as repeats; remove the file to start afresh)`
}
