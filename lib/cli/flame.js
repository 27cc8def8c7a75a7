import { resolve } from 'node:path'
import { runFlame, withPort } from '../commands/flame.js'
import { viewProfile } from '../commands/flame-view.js'
import { usageError } from '../errors.js'
import { renderLoadHeader, renderLoadResult } from '../report/load-terminal.js'
import { renderFlameSummary } from '../report/flame-terminal.js'
import { createProgressBar } from '../report/progress.js'
import { createStyle } from '../report/style.js'
import { splitWords } from '../target/command.js'
import { parseFlags } from './flags.js'
import { parseLoadArgs } from './load.js'

/** @type {import('./flags.js').Command} */
export const command = {
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
    { name: 'load', type: 'string', placeholder: 'flags and url', description: 'once the app listens, run dyno load with these flags; $PORT is the app\'s port, e.g. --load \'-c 100 -d 10 http://127.0.0.1:$PORT/\'' },
    { name: 'on-port', type: 'string', placeholder: 'command', description: 'once the app listens, run this shell command (PORT is set) and stop when it exits' },
    { name: 'sampling-interval', type: 'integer', min: 50, default: 1000, placeholder: 'µs', description: 'microseconds between CPU samples' },
    { name: 'listen-timeout', type: 'duration', default: 30, placeholder: 'seconds', description: 'with --load or --on-port: how long to wait for the app to listen' },
    { name: 'stop-grace', type: 'duration', default: 5, placeholder: 'seconds', description: 'how long the app may take to shut down after SIGTERM before it gets SIGKILL' },
    { name: 'out', type: 'string', default: '.dyno', placeholder: 'folder', description: 'where run folders go' },
    { name: 'view', type: 'string', placeholder: 'file.cpuprofile', description: 'render a profile written by node --cpu-prof or DevTools, instead of running anything' }
  ],
  examples: [
    'dyno flame --load \'-c 100 -d 10 http://127.0.0.1:$PORT/\' -- node server.js',
    'dyno flame --on-port \'wrk -d 10s http://127.0.0.1:$PORT/\' -- npm start',
    'dyno flame -- node script.js',
    'dyno flame --view CPU.20261122.cpuprofile'
  ]
}

/**
 * @param {string[]} argv
 * @param {import('./io.js').IO} io
 */
export async function run (argv, io) {
  const [own, target] = splitCommand(argv)
  const { values, positionals } = parseFlags(command, own)
  if (positionals.length > 0) throw usageError('DYNO_BAD_FLAG', `unexpected "${positionals[0]}"; put the command after --`)
  const style = createStyle(io.stdout)

  if (values.view !== undefined) {
    if (target.length > 0) throw usageError('DYNO_BAD_FLAG', '--view renders a profile; it takes no command')
    const rendered = viewProfile(values.view, values.out, io.cwd)
    io.stdout.write(renderFlameSummary(rendered, null, style))
    return 0
  }
  if (target.length === 0) throw usageError('DYNO_NO_COMMAND', 'no command to profile; give it after --, like: dyno flame -- node app.js')
  if (values.load !== undefined && values['on-port'] !== undefined) throw usageError('DYNO_BAD_FLAG', '--load and --on-port both drive the app; pass one')

  let loadOptions = null
  if (values.load !== undefined) {
    // Checked now, with a stand-in port, rather than after the app started.
    loadOptions = (await parseLoadArgs(splitWords(values.load), io.cwd, { urlToCheck: (url) => withPort(url, 1) })).options
  }

  const bar = values.load !== undefined && io.stderr.isTTY ? createProgressBar(io.stderr) : null
  const controller = new AbortController()
  const stopListening = io.onInterrupt(() => controller.abort())
  let result
  try {
    result = await runFlame({
      command: target,
      load: loadOptions,
      onPort: values['on-port'] ?? null,
      samplingIntervalUs: values['sampling-interval'],
      listenTimeoutMs: values['listen-timeout'] * 1000,
      stopGraceMs: values['stop-grace'] * 1000,
      out: resolve(io.cwd, values.out),
      signal: controller.signal
    }, { cwd: io.cwd, env: io.env }, {
      onLoadStart: (options) => io.stdout.write(renderLoadHeader(options) + '\n'),
      onLoadProgress: bar ? (p) => bar.update(p) : undefined,
      onLoadEnd: () => bar?.done()
    })
  } finally {
    stopListening()
  }

  if (result.load) io.stdout.write(renderLoadResult(result.load, { style }) + '\n')
  if (result.rendered) io.stdout.write(renderFlameSummary(result.rendered, result.exit, style))
  if (result.failure) io.stderr.write(`dyno flame: ${/** @type {Error} */ (result.failure).message}\n`)
  else if (result.exitCode !== 0) io.stderr.write(`dyno flame: the app ${result.exit.how}\n`)
  return result.exitCode
}

/**
 * dyno's own flags, then the command: after `--`, or from the first word
 * that is neither a flag nor a flag's value.
 * @param {string[]} argv
 * @returns {[string[], string[]]}
 */
function splitCommand (argv) {
  const dash = argv.indexOf('--')
  if (dash !== -1) return [argv.slice(0, dash), argv.slice(dash + 1)]
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (!arg.startsWith('-')) return [argv.slice(0, i), argv.slice(i)]
    const name = arg.replace(/^--?/, '')
    const flag = command.flags.find((f) => f.name === name)
    if (flag && flag.type !== 'boolean' && !arg.includes('=')) i++
  }
  return [argv, []]
}
