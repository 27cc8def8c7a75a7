import { dynoError } from '../errors.js'
import { caError } from './ca.js'
import { checkLimits } from './limits.js'
import { firstBadRequest, headersError, methodProblem } from './request-check.js'
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
 * @property {string} [socketPath] a unix socket to connect to instead of the URL's host and port (the URL still gives
 *   the path and the Host header); `unix:/path/to.sock` as the url says the same
 * @property {boolean} [http2] speak HTTP/2: negotiated by ALPN on https://, with prior knowledge (h2c) on http://
 * @property {number} [streams] HTTP/2: requests in flight on each connection, as concurrent streams
 * @property {number} [connections] concurrent connections
 * @property {number} [pipelining] HTTP/1.1: requests in flight per connection
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
 * @property {number} pipelining 1 with HTTP/2
 * @property {number} streams 1 with HTTP/1.1
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
  const unix = unixUrl(options.url)
  if (unix !== null && options.socketPath !== undefined) throw dynoError('DYNO_BAD_SOCKET.twice', { url: options.url })
  const url = parseTargetUrl(unix === null ? options.url : `http://localhost${unix.path}`)
  const socketPath = unix?.socketPath ?? options.socketPath
  if (socketPath !== undefined && (typeof socketPath !== 'string' || socketPath === '')) throw dynoError('DYNO_BAD_SOCKET.empty')
  const connections = positiveInteger(options.connections ?? DEFAULTS.connections, 'connections')
  const pipelining = positiveInteger(options.pipelining ?? DEFAULTS.pipelining, 'pipelining')
  const http2 = options.http2 === true
  const streams = positiveInteger(options.streams ?? 1, 'streams')
  if (options.streams !== undefined && !http2) throw dynoError('DYNO_BAD_OPTION.streamsWithoutHttp2')
  if (http2 && pipelining > 1) throw dynoError('DYNO_BAD_OPTION.pipeliningWithHttp2', { pipelining })
  const amount = options.amount === undefined ? Infinity : positiveInteger(options.amount, 'amount')
  const durationGiven = options.duration !== undefined
  const duration = positiveNumber(options.duration ?? DEFAULTS.duration, 'duration')
  const timeout = positiveNumber(options.timeout ?? DEFAULTS.timeout, 'timeout')
  const workers = options.workers === undefined ? DEFAULTS.workers : nonNegativeInteger(options.workers, 'workers')
  const rate = options.rate === undefined ? 0 : positiveNumber(options.rate, 'rate')
  const maxConnectionsGiven = options.maxConnections !== undefined
  const maxConnections = positiveInteger(options.maxConnections ?? Math.max(DEFAULTS.maxConnections, connections), 'maxConnections')
  if (maxConnections < connections) {
    throw dynoError('DYNO_BAD_OPTION.maxConnections', { max: maxConnections, connections })
  }
  const segment = segmentOf(options.segment)
  const own = (/** @type {number} */ total) => shareOf(total, stripe([segment]))
  if (own(connections) === 0) throw dynoError('DYNO_EMPTY_SEGMENT.connections', { ...segment, connections })
  if (own(amount) === 0) throw dynoError('DYNO_EMPTY_SEGMENT.amount', { ...segment, amount })
  if (workers > own(connections)) {
    if (segment.count === 1) throw dynoError('DYNO_BAD_OPTION.workers', { workers })
    throw dynoError('DYNO_EMPTY_SEGMENT.workers', { workers, ...segment, own: own(connections), connections })
  }
  const startAt = options.startAt === undefined ? null : startTime(options.startAt)
  const method = String(options.method ?? DEFAULTS.method).toUpperCase()
  const badMethod = methodProblem(method)
  if (badMethod !== null) throw dynoError('DYNO_BAD_OPTION.method', { method: String(JSON.stringify(options.method)) })
  const headers = withCredentials({ ...options.headers }, url)
  const badHeaders = headersError(headers)
  if (badHeaders !== null) throw badHeaders
  if (options.ca !== undefined) {
    const badCa = caError(options.ca)
    if (badCa !== null) throw badCa
  }
  const requests = options.requests ?? [{}]
  if (!Array.isArray(requests) || requests.length === 0) {
    throw dynoError('DYNO_BAD_REQUESTS.notArray')
  }
  const bad = firstBadRequest(requests)
  if (bad !== null) throw dynoError('DYNO_BAD_REQUESTS.badRequest', { number: bad.index + 1, problem: bad.problem })
  if (workers > 0 && options.requests && !options.requestsFile && requests.some(hasHooks)) {
    throw dynoError('DYNO_BAD_REQUESTS.hooksInWorkers')
  }
  const maxOpen = checkLimits({ connections, pipelining, streams, workers, maxConnections, maxConnectionsGiven, openModel: rate > 0, socket: socketPath !== undefined })
  const tls = url.protocol === 'https:'
  const port = Number(url.port) || (tls ? 443 : 80)
  const hostname = url.hostname.replace(/^\[|\]$/g, '')
  return {
    url,
    target: {
      tls,
      hostname,
      port,
      socketPath,
      http2,
      host: url.host,
      servername: tls && !/^[\d.]+$|:/.test(hostname) ? hostname : undefined,
      insecure: options.insecure === true,
      ca: options.ca
    },
    connections,
    pipelining,
    streams,
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
    throw dynoError('DYNO_BAD_SEGMENT.option', { index, count })
  }
  return { index, count }
}

/** @param {number} at epoch ms */
function startTime (at) {
  if (!Number.isFinite(at)) throw dynoError('DYNO_BAD_START.notTime')
  if (at - Date.now() > MAX_START_WAIT_MS) throw dynoError('DYNO_BAD_START.tooFar', { at: new Date(at).toISOString() })
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

/**
 * `unix:/run/app.sock` or `unix:/run/app.sock:/path?query`: a unix socket,
 * and the path to request on it (`/` when none is given).
 * @param {unknown} raw
 * @returns {{ socketPath: string, path: string } | null}
 */
export function unixUrl (raw) {
  if (typeof raw !== 'string' || !/^unix:/i.test(raw)) return null
  const rest = raw.slice(5)
  const at = rest.indexOf(':/')
  const socketPath = at === -1 ? rest : rest.slice(0, at)
  if (socketPath === '') throw dynoError('DYNO_BAD_SOCKET.empty')
  return { socketPath, path: at === -1 ? '/' : rest.slice(at + 1) }
}

/** @param {string} raw */
export function parseTargetUrl (raw) {
  if (typeof raw !== 'string' || raw === '') {
    throw dynoError('DYNO_BAD_URL.missing', { example: 'http://127.0.0.1:3000/' })
  }
  let url
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`)
  } catch {
    throw dynoError('DYNO_BAD_URL.notUrl', { url: raw })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    if (url.protocol === 'http+unix:') throw dynoError('DYNO_BAD_URL.unixForm', { url: raw })
    throw dynoError('DYNO_BAD_URL.protocol', { url: raw, protocol: url.protocol.slice(0, -1) })
  }
  if (url.hostname === '') throw dynoError('DYNO_BAD_URL.noHost', { url: raw })
  return url
}

/** @param {unknown} value @param {string} name */
function positiveInteger (value, name) {
  if (!Number.isInteger(value) || /** @type {number} */ (value) < 1) {
    throw dynoError('DYNO_BAD_OPTION.atLeastOne', { name, value: String(value) })
  }
  return /** @type {number} */ (value)
}

/** @param {unknown} value @param {string} name */
function nonNegativeInteger (value, name) {
  if (!Number.isInteger(value) || /** @type {number} */ (value) < 0) {
    throw dynoError('DYNO_BAD_OPTION.atLeastZero', { name, value: String(value) })
  }
  return /** @type {number} */ (value)
}

/** @param {unknown} value @param {string} name */
function positiveNumber (value, name) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw dynoError('DYNO_BAD_OPTION.aboveZero', { name, value: String(value) })
  }
  return value
}
