import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { dynoError, fileProblem } from '../../errors.js'
import { DEFAULTS, resolveOptions } from '../../load/options.js'
import { loadRequestsFile } from '../../load/requests-file.js'
import { parseSegment } from '../../load/segment.js'
import { runLoad } from './command.js'
import { renderLoadHeader, renderLoadResult, renderThresholds } from './terminal.js'
import { parseThresholds } from './thresholds.js'
import { createProgressBar } from '../../report/progress.js'
import { createStyle } from '../../report/style.js'
import { parseFlags } from '../../cli/flags.js'
import { interruptSignal } from '../../cli/io.js'

/** @satisfies {import('../../cli/flags.js').Command} */
export const command = /** @type {const} */ ({
  name: 'load',
  usage: 'dyno load [flags] <url>',
  summary: 'Send HTTP load to a server and report latency, throughput and errors.',
  details: [
    'Closed model (default): each connection sends its next request when the last one returns.',
    'Open model (-R): requests go out at a constant rate whatever the server does, and latency',
    'counts from when each request was due, so a stalled server shows in the tail.',
    '',
    '--fail-on thresholds: a figure, <, <=, >, >= or =, and a number. Latency p<N> (any percentile),',
    'mean, min, max in us, ms or s (a bare number is ms); rps; requests, errors, non2xx (counts);',
    'error-rate, non2xx-rate in % of the requests sent (or a fraction). A run where no request',
    'completed judges none: exit 2.'
  ].join('\n'),
  flags: [
    { name: 'connections', short: 'c', type: 'integer', min: 1, default: DEFAULTS.connections, placeholder: 'n', description: 'concurrent connections' },
    { name: 'pipelining', short: 'p', type: 'integer', min: 1, default: DEFAULTS.pipelining, placeholder: 'n', description: 'requests in flight on each connection' },
    { name: 'duration', short: 'd', type: 'duration', longerThanTimers: true, default: DEFAULTS.duration, placeholder: 'seconds', description: 'how long to run (10, 30s, 2m); with -a alone, no limit' },
    { name: 'amount', short: 'a', type: 'integer', min: 1, placeholder: 'n', description: 'send exactly this many requests, then stop' },
    { name: 'timeout', short: 't', type: 'duration', default: DEFAULTS.timeout, placeholder: 'seconds', description: 'seconds a request may wait for its response' },
    { name: 'workers', short: 'w', type: 'integer', min: 0, default: DEFAULTS.workers, placeholder: 'n', description: 'worker threads, each with its share of connections (0: one thread)' },
    { name: 'rate', short: 'R', type: 'number', placeholder: 'req/s', description: 'open model: send this many requests per second in total, evenly spaced' },
    { name: 'max-connections', type: 'integer', min: 1, placeholder: 'n', description: `open model: most connections to open when the server falls behind (default: ${DEFAULTS.maxConnections}, or -c when higher)` },
    { name: 'method', short: 'm', type: 'string', default: DEFAULTS.method, placeholder: 'method', description: 'HTTP method' },
    { name: 'header', short: 'H', type: 'string', multiple: true, placeholder: 'name: value', description: 'request header; "name=value" works too' },
    { name: 'body', short: 'b', type: 'string', placeholder: 'text', description: 'request body' },
    { name: 'input', short: 'i', type: 'string', placeholder: 'file', description: 'read the request body from a file' },
    { name: 'requests', type: 'string', placeholder: 'file.js|json', description: 'a sequence of requests each connection sends in turn; a .js file may build each request with setupRequest(request, context)' },
    { name: 'insecure', type: 'boolean', description: 'https: do not verify the server certificate' },
    { name: 'ca', type: 'string', placeholder: 'file', description: 'https: also trust this certificate authority (PEM)' },
    { name: 'segment', type: 'string', placeholder: 'i/n', description: 'make generator i\'s share of a load n generators make together (i from 0): its stripe of the connections, -a requests and -R rate; dyno merge adds up their --json results' },
    { name: 'start-at', type: 'string', placeholder: 'time', description: 'wait until this time to start (ISO 8601 with its zone, or epoch ms), so that generators on many machines start together' },
    { name: 'json', short: 'j', type: 'boolean', description: 'print one JSON document (with the latency histogram) instead of tables' },
    { name: 'latency', short: 'l', type: 'boolean', description: 'print the full latency percentile table' },
    { name: 'progress', type: 'boolean', default: true, description: 'show a progress bar on a terminal' },
    { name: 'fail-on', type: 'string', multiple: true, placeholder: 'thresholds', description: 'exit 3 when a threshold on the result is broken: \'p99<200ms,errors=0,rps>5000\'' }
  ],
  examples: [
    'dyno load -c 100 -d 10 http://127.0.0.1:3000/hello',
    'dyno load -m POST -H "content-type: application/json" -b \'{"hello":"world"}\' http://127.0.0.1:3000/echo',
    'dyno load -R 2000 -d 30 -l http://127.0.0.1:3000/',
    'dyno load -a 1000 --json http://127.0.0.1:3000/ > result.json',
    'dyno load -d 30 --fail-on \'p99<200ms,error-rate<1%\' http://127.0.0.1:3000/'
  ]
})

/** @typedef {Readonly<import('../../cli/flags.js').FlagValues<typeof command.flags>>} LoadFlagValues */

/**
 * @param {string[]} argv
 * @param {import('../../cli/io.js').IO} io
 */
export async function run (argv, io) {
  const { options, values, thresholds } = await parseLoadArgs(argv, io.cwd, { thresholds: true })
  const style = createStyle(io.stdout)
  const progressOn = values.progress && !values.json && io.stderr.isTTY === true
  const bar = progressOn ? createProgressBar(io.stderr) : null
  const interrupt = interruptSignal(io)
  let outcome
  try {
    outcome = await runLoad(options, {
      cwd: io.cwd,
      env: io.env,
      signal: interrupt.signal,
      onEvent: (event) => {
        if (event.type === 'load-start' && !values.json) io.stdout.write(renderLoadHeader(event.options) + '\n')
        else if (event.type === 'load-progress') bar?.update(event.progress)
      }
    }, { thresholds })
  } finally {
    bar?.done()
    interrupt.dispose()
  }
  const { result, exitCode, problem, verdicts, thresholdLines } = outcome
  if (values.json) {
    io.stdout.write(JSON.stringify(verdicts ? { ...result, thresholds: verdicts } : result, null, 2) + '\n')
  } else {
    io.stdout.write(renderLoadResult(result, { style, percentiles: values.latency }))
    if (verdicts) io.stdout.write(renderThresholds(verdicts, style))
  }
  if (problem) io.stderr.write(`dyno load: ${problem}\n`)
  for (const line of thresholdLines) io.stderr.write(`dyno load: ${line}\n`)
  return exitCode
}

/**
 * `dyno load`'s flags and URL as load options, checked; `dyno flame --load` uses it too.
 * @param {string[]} argv
 * @param {string} cwd
 * @param {{ urlToCheck?: (url: string) => string, example?: string, thresholds?: boolean }} [options] what the URL is checked as
 *   (flame's URL holds `$PORT` until the app listens), a URL to give as an example, and whether --fail-on
 *   is taken (dyno load's own; a load another command runs refuses it rather than ignore it)
 */
export async function parseLoadArgs (argv, cwd, { urlToCheck = (/** @type {string} */ url) => url, example = 'http://127.0.0.1:3000/', thresholds: takesThresholds = false } = {}) {
  const { values, positionals, given } = parseFlags(command, argv)
  if (given.has('fail-on') && !takesThresholds) {
    throw dynoError('DYNO_BAD_FLAG.failOnInLoad')
  }
  // A threshold that cannot be judged is a mistake to say now, before the load runs.
  const thresholds = given.has('fail-on') ? parseThresholds(values['fail-on']) : null
  if (positionals.length !== 1) {
    throw positionals.length === 0
      ? dynoError('DYNO_BAD_URL.missing', { example })
      : dynoError('DYNO_BAD_ARGUMENTS.oneUrl', { count: positionals.length, urls: positionals.join(' ') })
  }
  // -a alone means "exactly N requests, however long it takes"; an explicit -d still limits it.
  const duration = values.amount !== undefined && !given.has('duration') ? undefined : values.duration
  const options = await loadOptionsFromFlags({ ...values, duration }, positionals[0], cwd)
  // Every mistake now, before a header is printed or an app is started.
  if (options.requestsFile) options.requests = await loadRequestsFile(options.requestsFile)
  resolveOptions({ ...options, url: urlToCheck(options.url) })
  return { options, values, thresholds }
}

/**
 * @param {Omit<LoadFlagValues, 'duration'> & { duration: number | undefined }} values parsed flags
 * @param {string} url
 * @param {string} cwd
 * @returns {Promise<import('../../load/options.js').LoadOptions>}
 */
async function loadOptionsFromFlags (values, url, cwd) {
  if (values.body !== undefined && values.input !== undefined) {
    throw dynoError('DYNO_BAD_FLAG.bodyAndInput')
  }
  const body = values.input !== undefined ? await readUserFile(values.input, cwd, 'body') : values.body
  const ca = values.ca !== undefined ? await readUserFile(values.ca, cwd, 'certificate authority') : undefined
  return {
    url,
    connections: values.connections,
    pipelining: values.pipelining,
    duration: values.duration,
    amount: values.amount,
    timeout: values.timeout,
    workers: values.workers,
    rate: values.rate,
    maxConnections: values['max-connections'],
    method: values.method,
    headers: parseHeaders(values.header),
    body,
    requestsFile: values.requests !== undefined ? resolve(cwd, values.requests) : undefined,
    insecure: values.insecure === true,
    ca,
    segment: values.segment === undefined ? undefined : segmentFlag(values.segment),
    startAt: values['start-at'] === undefined ? undefined : startAtFlag(values['start-at'])
  }
}

/** @param {string} text */
function segmentFlag (text) {
  const segment = parseSegment(text)
  if (!segment) throw dynoError('DYNO_BAD_SEGMENT.flag', { text })
  return segment
}

/**
 * ISO 8601 with its zone (a time without one means another instant on
 * each machine), or epoch milliseconds.
 * @param {string} text
 */
function startAtFlag (text) {
  const at = /^\d+$/.test(text) ? Number(text) : /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i.test(text) ? Date.parse(text) : NaN
  if (!Number.isFinite(at)) throw dynoError('DYNO_BAD_START.flag', { text })
  return at
}

/**
 * `name: value` or `name=value`, split at whichever comes first.
 * @param {string[]} raw
 */
export function parseHeaders (raw) {
  /** @type {Record<string, string>} */
  const headers = {}
  for (const text of raw) {
    const at = text.search(/[:=]/)
    const name = at > 0 ? text.slice(0, at).trim() : ''
    if (name === '') throw dynoError('DYNO_BAD_HEADER.notHeader', { text })
    headers[name] = text.slice(at + 1).trim()
  }
  return headers
}

/**
 * @param {string} file @param {string} cwd @param {string} what
 */
async function readUserFile (file, cwd, what) {
  try {
    return await readFile(resolve(cwd, file))
  } catch (err) {
    throw dynoError('DYNO_BAD_FILE.unreadableAs', { what, file, why: fileProblem(err) })
  }
}
