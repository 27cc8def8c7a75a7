import { dynoError } from '../errors.js'
import { builtRequestProblem } from './request-check.js'

/**
 * Turns request descriptions into the bytes sent on the wire. Requests that
 * never change are encoded once, before the run; only a request with a
 * `setupRequest` hook is encoded again each time it is sent.
 */

/**
 * @typedef {object} RequestSpec
 * @property {string} [method] defaults to the run's method
 * @property {string} [path] path and query, defaults to the URL's
 * @property {Record<string, string>} [headers] added to (and overriding) the run's headers
 * @property {string | Buffer} [body]
 * @property {(request: RequestSpec, context: Record<string, any>) => RequestSpec | void | Promise<RequestSpec | void>} [setupRequest]
 *   builds the request just before it is sent, e.g. a unique body each time; gets a copy
 *   of the spec and the connection's context object, returns the spec to send (fields it
 *   leaves out keep their values; nothing sends the copy), or a promise of it
 * @property {(status: number, body: string, context: Record<string, any>) => void} [onResponse]
 *   sees each response to this request (its body is kept only when this hook exists)
 */

/**
 * @typedef {object} EncodedRequest
 * @property {number} index its place in the sequence
 * @property {Buffer | null} bytes the encoded request, or null when it is built per send
 * @property {boolean} head the response carries no body
 * @property {RequestSpec} spec
 * @property {string} [source] the requests file it came from, as shown to the user
 */

/**
 * @param {RequestSpec} spec complete (method, path, headers filled in)
 * @param {string} host value of the Host header
 * @returns {Buffer}
 */
export function encodeRequest (spec, host) {
  const method = spec.method ?? 'GET'
  const headers = spec.headers ?? {}
  const body = spec.body === undefined || spec.body === null
    ? null
    : spec.body instanceof Uint8Array ? Buffer.from(spec.body.buffer, spec.body.byteOffset, spec.body.byteLength) : Buffer.from(String(spec.body))
  let head = `${method} ${spec.path ?? '/'} HTTP/1.1\r\n`
  let hasHost = false
  let hasLength = false
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (lower === 'host') hasHost = true
    if (lower === 'content-length' || lower === 'transfer-encoding') hasLength = true
    head += `${name}: ${value}\r\n`
  }
  if (!hasHost) head = head.replace('\r\n', `\r\nhost: ${host}\r\n`)
  if (body !== null && !hasLength) head += `content-length: ${body.length}\r\n`
  else if (body === null && !hasLength && methodExpectsBody(method)) head += 'content-length: 0\r\n'
  head += '\r\n'
  const headBytes = Buffer.from(head, 'latin1')
  return body === null ? headBytes : Buffer.concat([headBytes, body])
}

/** @param {string} method */
function methodExpectsBody (method) {
  return method === 'POST' || method === 'PUT' || method === 'PATCH'
}

/**
 * Fills each spec from the run's defaults and encodes the ones that never change.
 * @param {RequestSpec[]} specs
 * @param {{ method: string, path: string, headers: Record<string, string>, body?: string | Buffer, host: string, source?: string }} defaults
 * @returns {EncodedRequest[]}
 */
export function prepareRequests (specs, defaults) {
  return specs.map((raw, index) => {
    /** @type {RequestSpec} */
    const spec = {
      ...raw,
      method: (raw.method ?? defaults.method).toUpperCase(),
      path: raw.path ?? defaults.path,
      headers: { ...defaults.headers, ...raw.headers },
      body: raw.body ?? defaults.body
    }
    const dynamic = typeof spec.setupRequest === 'function'
    return {
      index,
      bytes: dynamic ? null : encodeRequest(spec, defaults.host),
      head: spec.method === 'HEAD',
      spec,
      source: defaults.source
    }
  })
}

/**
 * Builds and encodes a request whose `setupRequest` hook makes it now. A hook
 * that returns a promise gets a promise back; the others, the encoding at once.
 * @template T
 * @param {EncodedRequest} request
 * @param {Record<string, any>} context the connection's context
 * @param {(spec: RequestSpec) => T} encode what goes on the wire for a complete spec
 * @returns {T | Promise<T>}
 */
export function buildDynamicRequest (request, context, encode) {
  const spec = request.spec
  const copy = { ...spec, headers: { ...spec.headers } }
  let built
  try {
    built = /** @type {NonNullable<RequestSpec['setupRequest']>} */ (spec.setupRequest)(copy, context)
  } catch (err) {
    throw hookError('setupRequest', request, err)
  }
  if (built instanceof Promise || isThenable(built)) {
    return Promise.resolve(built).then(
      (value) => encode(builtSpec(request, copy, value)),
      (err) => { throw hookError('setupRequest', request, err) }
    )
  }
  return encode(builtSpec(request, copy, built))
}

/**
 * The spec a hook made, checked.
 * @param {EncodedRequest} request @param {RequestSpec} copy what the hook was given
 * @param {unknown} built what it returned
 */
function builtSpec (request, copy, built) {
  const spec = built === undefined || built === null || built === copy ? copy : { ...copy, ...(built) }
  const problem = builtRequestProblem(request.spec, built, spec)
  if (problem !== null) throw dynoError('DYNO_REQUEST_HOOK.returned', { request: describeRequest(request), problem })
  if (spec.method !== request.spec.method) spec.method = /** @type {string} */ (spec.method).toUpperCase()
  return spec
}

/** @param {unknown} value */
function isThenable (value) {
  return value !== null && typeof value === 'object' && typeof (/** @type {{ then?: unknown }} */ (value)).then === 'function'
}

/**
 * A request hook of the user's threw: that ends the run, with one line.
 * @param {string} hook @param {EncodedRequest} request @param {unknown} err
 */
export function hookError (hook, request, err) {
  return dynoError('DYNO_REQUEST_HOOK.threw', { hook, request: describeRequest(request), why: err instanceof Error ? err.message : String(err) })
}

/** `request 2 (POST /orders) in flow.mjs` @param {EncodedRequest} request */
function describeRequest (request) {
  return `request ${request.index + 1} (${request.spec.method} ${request.spec.path})${request.source ? ` in ${request.source}` : ''}`
}
