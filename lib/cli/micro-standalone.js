import { resolve } from 'node:path'
import { runMicro } from '../kinds/micro/command.js'
import { DynoError, dynoError } from '../errors.js'
import { command, microPrinter } from '../kinds/micro/cli.js'
import { parseFlags } from './flags.js'
import { microSettings } from '../micro/settings.js'

const STOP_SIGNALS = /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])

/**
 * `node bench.js`: a benchmark file that ends with `await run()` runs itself
 * as `dyno micro bench.js` would. Its settings come from `run({ ... })`;
 * the command line may add `--quick` and `--json` (`node bench.js --quick`).
 * @param {RunOptions} options
 * @returns {Promise<number>} the exit code
 *
 * @typedef {import('../micro/settings.js').MicroChoices & { json?: boolean }} RunOptions
 */
export async function runFromBenchmarkFile (options) {
  const file = resolve(process.argv[1])
  const controller = new AbortController()
  /** @type {Map<string, () => void>} */
  const handlers = new Map(STOP_SIGNALS.map((signal) => [signal, () => controller.abort(signal)]))
  for (const [signal, handler] of handlers) process.on(signal, handler)
  try {
    const flags = commandLine(process.argv.slice(2))
    const json = options.json === true || flags.json
    const printer = microPrinter({ stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), json })
    const settings = microSettings({ ...options, quick: options.quick === true || flags.quick })
    const { result, exitCode } = await runMicro({ files: [file], settings, save: null }, { cwd: process.cwd(), env: process.env, signal: controller.signal, onEvent: printer.onEvent })
    printer.finish(result)
    process.exitCode = exitCode
  } catch (err) {
    if (!(err instanceof DynoError)) throw err
    process.stderr.write(`dyno micro: ${err.message}\n`)
    process.exitCode = err.exitCode
  } finally {
    for (const [signal, handler] of handlers) process.off(signal, handler)
  }
  return /** @type {number} */ (process.exitCode)
}

/**
 * What a benchmark file run by node takes on its command line: two of
 * dyno micro's flags; the other settings go to `run({ ... })`.
 */
const STANDALONE = {
  name: 'micro',
  usage: 'node <benchmark file> [--quick] [--json]',
  summary: 'A benchmark file that ends with await run() runs itself as dyno micro would.',
  flags: command.flags.filter((flag) => flag.name === 'quick' || flag.name === 'json'),
  examples: ['node bench/sum.bench.js --quick']
}

/** @param {string[]} args */
function commandLine (args) {
  const known = STANDALONE.flags.flatMap((flag) => [`--${flag.name}`, `-${flag.short}`])
  const other = args.find((arg) => !known.includes(arg))
  if (other !== undefined) throw dynoError('DYNO_BAD_FLAG.standalone', { arg: other })
  const { values } = parseFlags(STANDALONE, args)
  return { quick: values.quick === true, json: values.json === true }
}
