import { usageError } from '../errors.js'

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
 * @property {(request: RequestSpec, context: Record<string, any>) => RequestSpec | void} [setupRequest]
 *   builds the request just before it is sent, e.g. a unique body each time; gets a copy
 *   of the spec and the connection's context object, returns the spec to send
 * @property {(status: number, body: string, context: Record<string, any>) => void} [onResponse]
 *   sees each response to this request (its body is kept only when this hook exists)
 */

/**
 * @typedef {object} EncodedRequest
 * @property {number} index its place in the sequence
 * @property {Buffer | null} bytes the encoded request, or null when it is built per send
 * @property {boolean} head the response carries no body
 * @property {RequestSpec} spec
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
    : Buffer.isBuffer(spec.body) ? spec.body : Buffer.from(String(spec.body))
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
 * @param {{ method: string, path: string, headers: Record<string, string>, body?: string | Buffer, host: string }} defaults
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
      spec
    }
  })
}

/**
 * Encodes a request whose `setupRequest` hook builds it now.
 * @param {EncodedRequest} request
 * @param {Record<string, any>} context the connection's context
 * @param {string} host
 */
export function buildDynamicRequest (request, context, host) {
  const spec = request.spec
  const copy = { ...spec, headers: { ...spec.headers } }
  let built
  try {
    built = spec.setupRequest?.(copy, context) ?? copy
  } catch (err) {
    throw hookError('setupRequest', request, err)
  }
  return encodeRequest(built, host)
}

/**
 * A request hook of the user's threw: that ends the run, with one line.
 * @param {string} hook @param {EncodedRequest} request @param {unknown} err
 */
export function hookError (hook, request, err) {
  const where = `${request.spec.method} ${request.spec.path}`
  return usageError('DYNO_REQUEST_HOOK', `the ${hook} hook of request ${request.index + 1} (${where}) threw: ${err instanceof Error ? err.message : String(err)}`)
}
