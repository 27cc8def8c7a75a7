import { resolve } from 'node:path'
import { runMicro } from '../kinds/micro/command.js'
import { DynoError, dynoError } from '../errors.js'
import { microPrinter } from '../kinds/micro/terminal.js'
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

/** @param {string[]} args */
function commandLine (args) {
  const flags = { quick: false, json: false }
  for (const arg of args) {
    if (arg === '--quick' || arg === '-q') flags.quick = true
    else if (arg === '--json' || arg === '-j') flags.json = true
    else throw dynoError('DYNO_BAD_FLAG.standalone', { arg })
  }
  return flags
}
