import { resolve } from 'node:path'
import { dynoError } from '../errors.js'
import { splitWords } from '../observe/command.js'
import { checkLoadUrl, withPort } from '../observe/load-url.js'
import { renderLoadHeader } from '../kinds/load/terminal.js'
import { createProgressBar } from '../report/progress.js'
import { createStyle } from '../report/style.js'
import { parseFlags } from './flags.js'
import { interruptSignal } from './io.js'
import { parseLoadArgs } from '../kinds/load/cli.js'

/**
 * What the commands that observe an app (flame, doctor, async, heap) share
 * on the command line: their flags, the command after `--`, the load, and
 * what is printed while the app runs.
 */

/** @satisfies {readonly import('./flags.js').Flag[]} */
export const OBSERVING_FLAGS = /** @type {const} */ ([
  { name: 'load', type: 'string', placeholder: 'flags and url', description: 'once the app listens, run dyno load with these flags; $PORT is the app\'s port, e.g. --load \'-c 100 -d 10 http://127.0.0.1:$PORT/\' ($SOCKET its unix socket: --load \'--socket $SOCKET http://localhost/\')' },
  { name: 'on-port', type: 'string', placeholder: 'command', description: 'once the app listens, run this shell command (PORT is set) and stop when it exits' },
  { name: 'listen-timeout', type: 'duration', default: 30, placeholder: 'seconds', description: 'with --load or --on-port: how long to wait for the app to listen' },
  { name: 'stop-grace', type: 'duration', default: 5, max: 600, maxReason: 'an app that takes longer is better killed', placeholder: 'seconds', description: 'how long the app may take to shut down after SIGTERM before it gets SIGKILL (a second Ctrl-C kills it at once)' },
  { name: 'out', type: 'string', default: '.dyno', placeholder: 'folder', description: 'where run folders go' },
  { name: 'pid', type: 'integer', min: 1, max: 4_194_304, maxReason: 'Linux gives no larger pid', placeholder: 'pid', description: 'observe a Node.js process that already runs, instead of starting a command: dyno opens its inspector (SIGUSR1), brings the agent in, closes the inspector, and takes the agent out at the end; the process goes on' },
  { name: 'duration', type: 'duration', placeholder: 'seconds', description: 'with --pid and no --load: how long to observe the process (else until Ctrl-C or its exit)' },
  { name: 'use-open-inspector', type: 'boolean', description: 'with --pid: observe through the inspector the process already has open (someone\'s debugger may be on it), and leave it open' }
])

/**
 * The options every observing command takes, from its parsed flags.
 * @param {Record<string, any>} values
 * @param {string[]} target the command after --
 * @param {import('./io.js').IO} io
 * @returns {Promise<import('../commands/observed-run.js').ObservingOptions>}
 */
export async function observingOptions (values, target, io) {
  const pid = values.pid ?? null
  if (pid !== null && target.length > 0) throw dynoError('DYNO_BAD_FLAG.pidAndCommand')
  if (pid === null && target.length === 0) throw dynoError('DYNO_NO_COMMAND.observe')
  if (values.load !== undefined && values['on-port'] !== undefined) throw dynoError('DYNO_BAD_FLAG.loadAndOnPort')
  if (values.duration !== undefined && pid === null) throw dynoError('DYNO_BAD_FLAG.durationWithoutPid')
  if (values.duration !== undefined && (values.load !== undefined || values['on-port'] !== undefined)) throw dynoError('DYNO_BAD_FLAG.durationWithLoad')
  if (values['use-open-inspector'] && pid === null) throw dynoError('DYNO_BAD_FLAG.openInspectorWithoutPid')
  if (values.out.trim() === '') throw dynoError('DYNO_BAD_FLAG.emptyOut')
  return {
    command: target,
    pid,
    durationMs: values.duration === undefined ? null : values.duration * 1000,
    useOpenInspector: values['use-open-inspector'] === true,
    load: values.load === undefined ? null : await loadFlag(values.load, io),
    onPort: values['on-port'] ?? null,
    listenTimeoutMs: values['listen-timeout'] * 1000,
    stopGraceMs: values['stop-grace'] * 1000,
    out: resolve(io.cwd, values.out)
  }
}

/**
 * The load `--load` asks for, checked now, with a stand-in port, rather than
 * after the app started.
 * @param {string} text dyno load's flags and url, as one string
 * @param {import('./io.js').IO} io
 * @param {{ duration?: number }} [defaults] the duration when the flags give neither -d nor -a (dyno load's own otherwise)
 */
export async function loadFlag (text, io, defaults = {}) {
  const { options: load, given } = await parseLoadArgs(splitWords(text), io.cwd, { urlToCheck: (url) => withPort(url, 1), example: "http://127.0.0.1:$PORT/ (in single quotes: --load '-c 10 http://127.0.0.1:$PORT/')" })
  checkLoadUrl(load.url)
  if (defaults.duration !== undefined && !given.has('duration') && !given.has('amount')) load.duration = defaults.duration
  return load
}

/**
 * Prints what happens while the app is observed: the load's header and
 * progress bar, and warnings.
 * @param {import('./io.js').IO} io
 * @param {import('../report/style.js').Style} style
 * @param {boolean} withLoad
 * @param {(data: any) => void} [onAgentData] a live view of the collectors' data
 */
export function observingPrinter (io, style, withLoad, onAgentData) {
  const bar = withLoad && io.stderr.isTTY ? createProgressBar(io.stderr) : null
  return {
    /** @param {import('../commands/io.js').CommandEvent} event */
    onEvent (event) {
      if (event.type === 'load-start') io.stdout.write(renderLoadHeader(event.options) + '\n')
      else if (event.type === 'load-progress') bar?.update(event.progress)
      else if (event.type === 'load-end') bar?.done()
      else if (event.type === 'warning') io.stderr.write(style.yellow(`dyno: ${event.message}`) + '\n')
      else if (event.type === 'notice') io.stderr.write(`dyno: ${event.message}\n`)
      else if (event.type === 'agent-data') onAgentData?.(event.data)
    },
    done () {
      bar?.done()
    }
  }
}

/**
 * An observing command's run on the command line, once its flags are read:
 * the load's header and progress while the app runs, Ctrl-C and SIGTERM,
 * then the result as JSON or as text, and a last line when the run did not
 * end as asked.
 * @template {{ meta: import('../run-folder.js').RunMeta, failure: Error | null }} R
 * @param {string} name the command
 * @param {import('./io.js').IO} io
 * @param {object} how
 * @param {boolean} how.json stdout holds the JSON document alone; what is said while the app runs goes to stderr
 * @param {boolean} how.progress whether to draw the load's progress bar (on a terminal)
 * @param {(io: import('../commands/io.js').CommandIO) => Promise<{ result: R, exitCode: number }>} how.start runs the command
 * @param {(result: R) => unknown} how.document the JSON document
 * @param {(result: R, style: import('../report/style.js').Style) => string} how.text the summary
 * @param {(event: import('../commands/io.js').CommandEvent) => boolean} [how.onEvent] takes an event before the printer does; true when it handled it
 * @param {(data: any) => void} [how.onAgentData] a live view of the collectors' data
 * @param {() => void} [how.done] once the app is stopped, before anything is printed
 */
export async function runObserving (name, io, how) {
  const style = createStyle(io.stdout)
  const interrupt = interruptSignal(io)
  const printer = observingPrinter(how.json ? { ...io, stdout: io.stderr } : io, style, how.progress, how.onAgentData)
  let outcome
  try {
    outcome = await how.start({
      cwd: io.cwd,
      env: io.env,
      signal: interrupt.signal,
      urgent: interrupt.urgent,
      onEvent: (event) => { if (!how.onEvent?.(event)) printer.onEvent(event) }
    })
  } finally {
    how.done?.()
    printer.done()
    interrupt.dispose()
  }
  const { result, exitCode } = outcome
  io.stdout.write(how.json ? JSON.stringify(how.document(result), null, 2) + '\n' : how.text(result, style))
  printRunEnd(io, name, result, exitCode)
  return exitCode
}

/**
 * The last line of an observing run on stderr, when it did not end as asked.
 * @param {import('./io.js').IO} io
 * @param {string} name the command
 * @param {{ failure: Error | null, meta: import('../run-folder.js').RunMeta }} result
 * @param {number} exitCode
 */
function printRunEnd (io, name, result, exitCode) {
  if (result.failure) io.stderr.write(`dyno ${name}: ${result.failure.message}\n`)
  // 128 and more: stopped by a signal, which the summary already says.
  else if (exitCode !== 0 && exitCode < 128) io.stderr.write(`dyno ${name}: ${result.meta.target?.pid ? `pid ${result.meta.target.pid}` : 'the app'} ${result.meta.end?.how}\n`)
}

/**
 * An observing command's flags, parsed, and the command to observe, which
 * comes after them.
 * @template {import('./flags.js').Command} C
 * @param {C} command
 * @param {string[]} argv
 */
export function parseObservingArgs (command, argv) {
  const [own, target] = splitCommand(argv, command.flags)
  const { values, positionals, given } = parseFlags(command, own)
  if (positionals.length > 0) throw dynoError('DYNO_BAD_ARGUMENTS.unexpected', { arg: positionals[0] })
  return { values, target, given }
}

/**
 * dyno's own flags, then the command: after `--`, or from the first word
 * that is neither a flag nor a flag's value.
 * @param {string[]} argv
 * @param {readonly import('./flags.js').Flag[]} flags the command's flags
 * @returns {[string[], string[]]}
 */
export function splitCommand (argv, flags) {
  const dash = argv.indexOf('--')
  if (dash !== -1) return [argv.slice(0, dash), argv.slice(dash + 1)]
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (!arg.startsWith('-')) return [argv.slice(0, i), argv.slice(i)]
    const name = arg.replace(/^--?/, '')
    const flag = flags.find((f) => f.name === name || f.short === name)
    if (flag && flag.type !== 'boolean' && !arg.includes('=')) i++
  }
  return [argv, []]
}
