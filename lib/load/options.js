import { usageError } from '../errors.js'
import { caProblem } from './ca.js'
import { checkLimits } from './limits.js'
import { firstBadRequest, headersProblem, methodProblem } from './request-check.js'
import { shareOf, stripe } from './segment.js'

/**
 * What a run does when an option is left out; the CLI's flags and help show
 * these same values.
 */
export const DEFAULTS = Object.freeze({
  connections: 10,
  pipelining: 1,
  /** seconds; with `amount` alone, no limit */
  duration: 10,
  /** seconds a request may wait for its response */
  timeout: 10,
  workers: 0,
  /** open model: most connections to open, or `connections` when higher */
  maxConnections: 1000,
  method: 'GET'
})

/**
 * @typedef {import('./request.js').RequestSpec} RequestSpec
 */

/**
 * What to load and how; an option left out takes its value from `DEFAULTS`.
 * @typedef {object} LoadOptions
 * @property {string} url `http://` or `https://`, to 127.0.0.0/8, ::1 or any host you may load;
 *   credentials in it (`user:pass@` before the host) are sent as Basic authorization
 * @property {number} [connections] concurrent connections
 * @property {number} [pipelining] requests in flight per connection
 * @property {number} [duration] seconds; no limit when only `amount` is given
 * @property {number} [amount] stop after exactly this many requests
 * @property {number} [timeout] seconds a request may wait for its response
 * @property {number} [workers] worker threads sharing the connections (0: this thread)
 * @property {number} [rate] open model: requests per second in total
 * @property {number} [maxConnections] open model: most connections to open when the server falls behind
 *   (`DEFAULTS.maxConnections`, or `connections` when higher, within the machine's limits)
 * @property {string} [method]
 * @property {Record<string, string>} [headers]
 * @property {string | Buffer} [body]
 * @property {RequestSpec[]} [requests] a sequence each connection sends in turn
 * @property {string} [requestsFile] a module or JSON file exporting the sequence (what workers load)
 * @property {boolean} [insecure] skip TLS certificate verification
 * @property {string | Buffer} [ca] extra certificate authority to trust, PEM
 * @property {import('./segment.js').Part} [segment] this generator's part of a load that several make together
 *   (connections, amount and rate are the whole's; this generator makes its share of each)
 * @property {number} [startAt] epoch ms: wait until then to start, so that generators elsewhere start together
 * @property {AbortSignal} [signal] stops the run; the result holds what was measured
 * @property {(progress: LoadProgress) => void} [onProgress] called once a second
 */

/**
 * @typedef {object} LoadProgress
 * @property {number} elapsed seconds since the start
 * @property {number} duration seconds planned (Infinity with `amount` alone)
 * @property {number} responses so far
 * @property {number} errors so far
 * @property {number} amount requested total, or Infinity
 * @property {number} lastSecond responses in the last second
 * @property {import('./histogram.js').IntervalLatency | null} [lastSecondLatency] their latency (ms): median, 99th percentile, max
 */

/**
 * Options after defaults and checks.
 * @typedef {object} ResolvedOptions
 * @property {URL} url
 * @property {import('./engine.js').Target} target
 * @property {number} connections
 * @property {number} pipelining
 * @property {number} durationMs
 * @property {number} amount
 * @property {number} timeoutMs
 * @property {number} workers
 * @property {number} rate
 * @property {number} maxConnections
 * @property {string} method
 * @property {Record<string, string>} headers
 * @property {string | Buffer | undefined} body
 * @property {RequestSpec[]} requests
 * @property {string | undefined} requestsFile
 * @property {import('./segment.js').Part} segment { index: 0, count: 1 } for a whole load
 * @property {number | null} startAt epoch ms
 */

/**
 * @param {LoadOptions} options
 * @returns {ResolvedOptions}
 */
export function resolveOptions (options) {
  const url = parseTargetUrl(options.url)
  const connections = positiveInteger(options.connections ?? DEFAULTS.connections, 'connections')
  const pipelining = positiveInteger(options.pipelining ?? DEFAULTS.pipelining, 'pipelining')
  const amount = options.amount === undefined ? Infinity : positiveInteger(options.amount, 'amount')
  const durationGiven = options.duration !== undefined
  const duration = positiveNumber(options.duration ?? DEFAULTS.duration, 'duration')
  const timeout = positiveNumber(options.timeout ?? DEFAULTS.timeout, 'timeout')
  const workers = options.workers === undefined ? DEFAULTS.workers : nonNegativeInteger(options.workers, 'workers')
  const rate = options.rate === undefined ? 0 : positiveNumber(options.rate, 'rate')
  const maxConnectionsGiven = options.maxConnections !== undefined
  const maxConnections = positiveInteger(options.maxConnections ?? Math.max(DEFAULTS.maxConnections, connections), 'maxConnections')
  if (maxConnections < connections) {
    throw usageError('DYNO_BAD_OPTION', `max connections (${maxConnections}) is below connections (${connections}); raise --max-connections`)
  }
  const segment = segmentOf(options.segment)
  const own = (/** @type {number} */ total) => shareOf(total, stripe([segment]))
  if (own(connections) === 0 || own(amount) === 0) {
    const what = own(connections) === 0 ? `-c ${connections} connections` : `-a ${amount} requests`
    throw usageError('DYNO_EMPTY_SEGMENT', `segment ${segment.index}/${segment.count} has nothing to do: ${segment.count} generators share ${what}; give at least ${segment.count}, or use fewer generators`)
  }
  if (workers > own(connections)) {
    throw usageError('DYNO_BAD_OPTION', segment.count === 1
      ? `${workers} workers need at least as many connections; raise -c to ${workers} or more`
      : `${workers} workers need at least as many connections, and segment ${segment.index}/${segment.count} has ${own(connections)} of the ${connections}; raise -c or lower -w`)
  }
  const startAt = options.startAt === undefined ? null : startTime(options.startAt)
  const method = String(options.method ?? DEFAULTS.method).toUpperCase()
  const badMethod = methodProblem(method)
  if (badMethod !== null) throw usageError('DYNO_BAD_OPTION', `${JSON.stringify(options.method)} is not an HTTP method`)
  const headers = withCredentials({ ...options.headers }, url)
  const badHeader = headersProblem(headers)
  if (badHeader !== null) throw usageError('DYNO_BAD_HEADER', badHeader)
  if (options.ca !== undefined) {
    const problem = caProblem(options.ca)
    if (problem !== null) throw usageError('DYNO_BAD_CA', `the certificate authority (--ca) ${problem}`)
  }
  const requests = options.requests ?? [{}]
  if (!Array.isArray(requests) || requests.length === 0) {
    throw usageError('DYNO_BAD_REQUESTS', 'requests must be a non-empty array of request descriptions')
  }
  const bad = firstBadRequest(requests)
  if (bad !== null) throw usageError('DYNO_BAD_REQUESTS', `request ${bad.index + 1}: ${bad.problem}`)
  if (workers > 0 && options.requests && !options.requestsFile && requests.some(hasHooks)) {
    throw usageError('DYNO_BAD_REQUESTS', 'requests with hooks cannot move to worker threads; pass them as requestsFile instead')
  }
  const maxOpen = checkLimits({ connections, pipelining, workers, maxConnections, maxConnectionsGiven, openModel: rate > 0 })
  const tls = url.protocol === 'https:'
  const port = Number(url.port) || (tls ? 443 : 80)
  const hostname = url.hostname.replace(/^\[|\]$/g, '')
  return {
    url,
    target: {
      tls,
      hostname,
      port,
      host: url.host,
      servername: tls && !/^[\d.]+$|:/.test(hostname) ? hostname : undefined,
      insecure: options.insecure === true,
      ca: options.ca
    },
    connections,
    pipelining,
    // `amount` alone means "exactly N requests, however long it takes".
    durationMs: options.amount !== undefined && !durationGiven ? Infinity : duration * 1000,
    amount,
    timeoutMs: timeout * 1000,
    workers,
    rate,
    maxConnections: maxOpen,
    method,
    headers,
    body: options.body,
    requests,
    requestsFile: options.requestsFile,
    segment,
    startAt
  }
}

/** The longest wait for a common start: generators are started minutes ahead, not days. */
export const MAX_START_WAIT_MS = 3600 * 1000

/** @param {import('./segment.js').Part | undefined} segment */
function segmentOf (segment) {
  if (segment === undefined) return { index: 0, count: 1 }
  const { index, count } = segment
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index < 0 || index >= count) {
    throw usageError('DYNO_BAD_SEGMENT', `segment ${index}/${count} is not one: give i/n with 0 <= i < n, like 0/3, 1/3 and 2/3 for three generators`)
  }
  return { index, count }
}

/** @param {number} at epoch ms */
function startTime (at) {
  if (!Number.isFinite(at)) throw usageError('DYNO_BAD_START', 'the start time is not a time; give an ISO 8601 time (2026-11-26T10:00:00Z) or epoch milliseconds')
  if (at - Date.now() > MAX_START_WAIT_MS) {
    throw usageError('DYNO_BAD_START', `--start-at ${new Date(at).toISOString()} is more than an hour away; give a time a little after every generator is started`)
  }
  return at
}

/**
 * Credentials in the URL become Basic authorization, as curl and
 * autocannon send them, unless an authorization header is given.
 * @param {Record<string, string>} headers @param {URL} url
 */
function withCredentials (headers, url) {
  if ((url.username === '' && url.password === '') || Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) return headers
  const credentials = `${decode(url.username)}:${decode(url.password)}`
  return { ...headers, authorization: `Basic ${Buffer.from(credentials).toString('base64')}` }
}

/** @param {string} text */
function decode (text) {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * A URL as it may be shown or saved: a password in it becomes `***`.
 * @param {string} url
 */
export function displayUrl (url) {
  return url.replace(/^((?:[a-z][a-z0-9+.-]*:\/\/)?[^/?#@:]*):[^/?#@]*@/i, '$1:***@')
}

/** @param {RequestSpec} spec */
function hasHooks (spec) {
  return typeof spec.setupRequest === 'function' || typeof spec.onResponse === 'function'
}

/** @param {string} raw */
export function parseTargetUrl (raw) {
  if (typeof raw !== 'string' || raw === '') {
    throw usageError('DYNO_BAD_URL', 'no URL given; pass one like http://127.0.0.1:3000/')
  }
  let url
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`)
  } catch {
    throw usageError('DYNO_BAD_URL', `"${raw}" is not a URL; pass one like http://127.0.0.1:3000/`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError('DYNO_BAD_URL', `"${raw}" uses ${url.protocol.slice(0, -1)}; dyno load speaks http:// and https://`)
  }
  if (url.hostname === '') throw usageError('DYNO_BAD_URL', `"${raw}" has no host`)
  return url
}

/** @param {unknown} value @param {string} name */
function positiveInteger (value, name) {
  if (!Number.isInteger(value) || /** @type {number} */ (value) < 1) {
    throw usageError('DYNO_BAD_OPTION', `${name} must be a whole number of at least 1, not ${String(value)}`)
  }
  return /** @type {number} */ (value)
}

/** @param {unknown} value @param {string} name */
function nonNegativeInteger (value, name) {
  if (!Number.isInteger(value) || /** @type {number} */ (value) < 0) {
    throw usageError('DYNO_BAD_OPTION', `${name} must be a whole number of at least 0, not ${String(value)}`)
  }
  return /** @type {number} */ (value)
}

/** @param {unknown} value @param {string} name */
function positiveNumber (value, name) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw usageError('DYNO_BAD_OPTION', `${name} must be a number above 0, not ${String(value)}`)
  }
  return value
}
