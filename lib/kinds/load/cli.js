import { readFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { dynoError, fileProblem } from '../../errors.js'
import { DEFAULTS, resolveOptions } from '../../load/options.js'
import { loadRequestsFile } from '../../load/requests-file.js'
import { parseSegment } from '../../load/segment.js'
import { runLoad } from './command.js'
import { MAX_GENERATORS, START_DELAY_S, kubernetesCommands, kubernetesManifests } from './kubernetes.js'
import { renderLoadHeader, renderLoadResult, renderThresholds } from './terminal.js'
import { parseThresholds } from './thresholds.js'
import { createProgressBar } from '../../report/progress.js'
import { createStyle } from '../../report/style.js'
import { parseFlags } from '../../cli/flags.js'
import { interruptSignal } from '../../cli/io.js'

/** dyno's version, for the image a Kubernetes Job runs; read only then. */
const version = () => JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version

/** The flags that make manifests instead of a load. */
const KUBERNETES_FLAGS = /** @type {const} */ (['kubernetes', 'image', 'namespace', 'out'])

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
    { name: 'pipelining', short: 'p', type: 'integer', min: 1, default: DEFAULTS.pipelining, placeholder: 'n', description: 'HTTP/1.1: requests in flight on each connection' },
    { name: 'http2', type: 'boolean', description: 'speak HTTP/2: negotiated by ALPN on https://, with prior knowledge (h2c) on http://' },
    { name: 'streams', type: 'integer', min: 1, placeholder: 'n', description: '--http2: requests in flight on each connection, as concurrent streams (default 1; the server\'s limit caps it)' },
    { name: 'socket', type: 'string', placeholder: 'path', description: 'connect to this unix socket; the URL still gives the path and Host (unix:/path/app.sock as the URL does both)' },
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
    { name: 'kubernetes', type: 'integer', min: 1, max: MAX_GENERATORS, maxReason: 'generators, each a pod with a core of its own', placeholder: 'n', description: `load nothing: print the Kubernetes manifests (an Indexed Job of n pods, each its --segment, all from one --start-at, by default ${START_DELAY_S} s later) and the commands that run them and merge their results` },
    { name: 'image', type: 'string', placeholder: 'image', description: '--kubernetes: the image the pods run (default: dyno:<version>, built from the Dockerfile at the root of dyno)' },
    { name: 'namespace', type: 'string', placeholder: 'namespace', description: '--kubernetes: the namespace of the Job' },
    { name: 'out', type: 'string', placeholder: 'file', description: '--kubernetes: write the manifests to this file, and print the commands alone' },
    { name: 'json', short: 'j', type: 'boolean', description: 'print one JSON document (with the latency histogram) instead of tables' },
    { name: 'latency', short: 'l', type: 'boolean', description: 'print the full latency percentile table' },
    { name: 'progress', type: 'boolean', default: true, description: 'show a progress bar on a terminal' },
    { name: 'fail-on', type: 'string', multiple: true, placeholder: 'thresholds', description: 'exit 3 when a threshold on the result is broken: \'p99<200ms,errors=0,rps>5000\'' }
  ],
  examples: [
    'dyno load -c 100 -d 10 http://127.0.0.1:3000/hello',
    'dyno load -m POST -H "content-type: application/json" -b \'{"hello":"world"}\' http://127.0.0.1:3000/echo',
    'dyno load -R 2000 -d 30 -l http://127.0.0.1:3000/',
    'dyno load --http2 --streams 10 -c 10 https://127.0.0.1:8443/ --insecure',
    'dyno load --socket /run/app.sock http://localhost/health',
    'dyno load -a 1000 --json http://127.0.0.1:3000/ > result.json',
    'dyno load -d 30 --fail-on \'p99<200ms,error-rate<1%\' http://127.0.0.1:3000/',
    'dyno load --kubernetes 4 -c 400 -d 60 --out load.yaml http://my-app.default.svc:8080/'
  ]
})

/** @typedef {Readonly<import('../../cli/flags.js').FlagValues<typeof command.flags>>} LoadFlagValues */

/**
 * @param {string[]} argv
 * @param {import('../../cli/io.js').IO} io
 */
export async function run (argv, io) {
  const { options, values, given, thresholds } = await parseLoadArgs(argv, io.cwd, { own: true })
  if (values.kubernetes !== undefined) return writeKubernetes(options, values, given, io)
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
 * @param {{ urlToCheck?: (url: string) => string, example?: string, own?: boolean }} [options] what the URL is checked as
 *   (flame's URL holds `$PORT` until the app listens), a URL to give as an example, and whether this is
 *   dyno load's own command line, which alone takes --fail-on and --kubernetes (a load another command
 *   runs refuses them rather than ignore them)
 */
export async function parseLoadArgs (argv, cwd, { urlToCheck = (/** @type {string} */ url) => url, example = 'http://127.0.0.1:3000/', own = false } = {}) {
  const { values, positionals, given } = parseFlags(command, argv)
  if (given.has('fail-on') && !own) {
    throw dynoError('DYNO_BAD_FLAG.failOnInLoad')
  }
  for (const flag of KUBERNETES_FLAGS) {
    if (!given.has(flag)) continue
    if (!own) throw dynoError('DYNO_BAD_KUBERNETES.notWithLoad', { flag })
    if (flag !== 'kubernetes' && !given.has('kubernetes')) throw dynoError('DYNO_BAD_KUBERNETES.onlyWith', { flag })
  }
  if (given.has('kubernetes') && given.has('segment')) throw dynoError('DYNO_BAD_KUBERNETES.withSegment')
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
  if (own && (options.socketPath === '$SOCKET' || /^unix:\$SOCKET/i.test(options.url))) throw dynoError('DYNO_BAD_SOCKET.placeholder')
  // Every mistake now, before a header is printed or an app is started.
  if (options.requestsFile) options.requests = await loadRequestsFile(options.requestsFile)
  resolveOptions({ ...options, url: urlToCheck(options.url) })
  return { options, values, given, thresholds }
}

/**
 * Flags the pods are given otherwise: --json and their segment and start always, the files from the
 * ConfigMap; and --fail-on, which the merge judges on the whole, never a pod on its share.
 */
const NOT_PASSED_ON = new Set([...KUBERNETES_FLAGS, 'segment', 'start-at', 'json', 'requests', 'input', 'ca', 'help', 'fail-on'])

/**
 * The load flags the user gave, as words a pod's dyno load takes again.
 * @param {LoadFlagValues} values @param {Set<string>} given
 */
function passedOn (values, given) {
  /** @type {string[]} */
  const words = []
  const all = /** @type {Record<string, unknown>} */ (values)
  for (const flag of command.flags) {
    if (!given.has(flag.name) || NOT_PASSED_ON.has(flag.name)) continue
    const value = all[flag.name]
    if (flag.type === 'boolean') words.push(value ? `--${flag.name}` : `--no-${flag.name}`)
    else if (Array.isArray(value)) for (const v of value) words.push(`--${flag.name}`, String(v))
    else words.push(`--${flag.name}`, String(value))
  }
  return words
}

/**
 * `dyno load --kubernetes <n>`: the manifests of the load, as YAML, after
 * the commands that run it (or the manifests to --out and the commands on
 * stdout).
 * @param {import('../../load/options.js').LoadOptions} options
 * @param {LoadFlagValues} values
 * @param {Set<string>} given
 * @param {import('../../cli/io.js').IO} io
 */
async function writeKubernetes (options, values, given, io) {
  const generators = /** @type {number} */ (values.kubernetes)
  const now = Date.now()
  /** @type {import('./kubernetes.js').LoadFile[]} */
  const files = []
  if (values.requests !== undefined && options.requestsFile !== undefined) {
    files.push({ flag: 'requests', file: values.requests, content: await readUserFile(values.requests, io.cwd, 'requests') })
  }
  if (values.input !== undefined && Buffer.isBuffer(options.body)) files.push({ flag: 'input', file: values.input, content: options.body })
  if (values.ca !== undefined && Buffer.isBuffer(options.ca)) files.push({ flag: 'ca', file: values.ca, content: options.ca })
  const manifests = kubernetesManifests({
    generators,
    url: options.url,
    flags: passedOn(values, given),
    files,
    image: values.image ?? `dyno:${version()}`,
    namespace: values.namespace,
    now,
    startAt: options.startAt,
    durationS: options.duration ?? null,
    timeoutS: values.timeout,
    workers: values.workers
  })
  // The engine's own check: each of the n segments has a connection (and, with -a, a request).
  resolveOptions({ ...options, segment: { index: generators - 1, count: generators } })
  const file = values.out ?? 'dyno-load.yaml'
  const commands = kubernetesCommands(manifests, { namespace: values.namespace, file, failOn: values['fail-on'] })
  const untilStart = Math.floor((Date.parse(manifests.startAt) - now) / 1000)
  const header = [
    `dyno load: ${generators} generator${generators === 1 ? '' : 's'} as the pods of the Job ${manifests.name}, image ${values.image ?? `dyno:${version()}`}, ${manifests.cpu} CPU each.`,
    `They start the load together at ${manifests.startAt} (${untilStart} s from now): apply the manifests at once,`,
    'or make them again, or give --start-at a time after every pod is running.',
    '',
    ...(values.out === undefined ? [`Save this output as ${file}, then:`, ''] : []),
    ...commands.map((line) => `  ${line}`)
  ]
  // The yaml package takes a while to load: only --kubernetes needs it.
  const { kubernetesYaml } = await import('./kubernetes-yaml.js')
  const yaml = kubernetesYaml(manifests)
  if (values.out !== undefined) {
    try {
      await writeFile(resolve(io.cwd, values.out), yaml)
    } catch (err) {
      throw dynoError('DYNO_BAD_KUBERNETES.outUnwritable', { out: values.out, why: fileProblem(err) })
    }
    io.stdout.write(header.join('\n') + '\n')
  } else {
    io.stdout.write(header.map((line) => line === '' ? '#' : `# ${line}`).join('\n') + '\n' + yaml)
  }
  return 0
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
    // $SOCKET stands for the socket an observed app listens on (see lib/observe/load-url.js).
    socketPath: values.socket === undefined || values.socket === '$SOCKET' ? values.socket : resolve(cwd, values.socket),
    http2: values.http2 === true,
    streams: values.streams,
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
