import { dynoError } from '../errors.js'

/**
 * What makes a request description sendable. A bad method, path or header
 * name would go out as malformed HTTP and come back as a wall of 400s; each
 * check returns what is wrong in a few words, or null.
 */

/** An HTTP token (RFC 9110): what a method or a header name may hold. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
/** Origin form (`/path?query`) in visible ASCII, or `*`. */
const PATH = /^(\/[\x21-\x7e]*|\*)$/
/** Characters a header value may not hold. */
const BAD_VALUE = /[\r\n\0]/

/** @param {unknown} method */
export function methodProblem (method) {
  if (typeof method !== 'string' || !TOKEN.test(method)) return `${quote(method)} is not an HTTP method`
  return null
}

/** @param {unknown} path */
export function pathProblem (path) {
  if (typeof path !== 'string' || !PATH.test(path)) {
    return `the path ${quote(path)} must start with "/" and hold no spaces, control or non-ASCII characters (percent-encode them)`
  }
  return null
}

/** @param {unknown} headers */
export function headersProblem (headers) {
  return headersError(headers)?.message ?? null
}

/**
 * What is wrong with the headers, as the error to throw, or null.
 * @param {unknown} headers
 */
export function headersError (headers) {
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) return dynoError('DYNO_BAD_HEADER.notObject')
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) return dynoError('DYNO_BAD_HEADER.badName', { name })
    if (typeof value !== 'string' && typeof value !== 'number') return dynoError('DYNO_BAD_HEADER.notString', { name })
    if (BAD_VALUE.test(String(value))) return dynoError('DYNO_BAD_HEADER.lineBreak', { name })
  }
  return null
}

/** @param {unknown} body */
export function bodyProblem (body) {
  if (body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array) return null
  return `the body must be a string or a Buffer, not ${describe(body)}${typeof body === 'object' ? ' (JSON.stringify it)' : ''}`
}

/**
 * Everything wrong with one request description, as given by the user.
 * @param {unknown} spec
 */
export function requestProblem (spec) {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    return `it must be an object like { method, path, headers, body }, not ${describe(spec)}`
  }
  const s = /** @type {Record<string, unknown>} */ (spec)
  for (const hook of ['setupRequest', 'onResponse']) {
    if (s[hook] !== undefined && typeof s[hook] !== 'function') return `${hook} must be a function`
  }
  return (s.method !== undefined ? methodProblem(s.method) : null) ??
    (s.path !== undefined ? pathProblem(s.path) : null) ??
    (s.headers !== undefined ? headersProblem(s.headers) : null) ??
    bodyProblem(s.body)
}

/**
 * The first request in a sequence that cannot be sent, and why.
 * @param {unknown[]} requests
 * @returns {{ index: number, problem: string } | null}
 */
export function firstBadRequest (requests) {
  for (let index = 0; index < requests.length; index++) {
    const problem = requestProblem(requests[index])
    if (problem !== null) return { index, problem }
  }
  return null
}

/** @param {unknown} value */
function describe (value) {
  if (value === null || value === undefined) return String(value)
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'object': return 'an object'
    case 'function': return 'a function'
    case 'string': return `the string ${quote(value)}`
    default: return `the ${typeof value} ${String(value)}`
  }
}

/** A value as the user wrote it, cut short. @param {unknown} value */
function quote (value) {
  const text = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'symbol' ? value.toString() : String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/**
 * What is wrong with the request a setupRequest hook built, or null.
 * @param {import('./request.js').RequestSpec} given the checked spec the hook's copy came from
 * @param {unknown} returned what the hook returned
 * @param {import('./request.js').RequestSpec} built `returned` over the copy
 */
export function builtRequestProblem (given, returned, built) {
  if (returned !== undefined && returned !== null && (typeof returned !== 'object' || Array.isArray(returned))) {
    return `${describe(returned)}; return the request object it was given, changed, or nothing`
  }
  // Fields the hook left as they were were checked before the run.
  const problem = (built.method !== given.method ? methodProblem(built.method) : null) ??
    (built.path !== given.path ? pathProblem(built.path) : null) ??
    (built.headers !== undefined ? headersProblem(built.headers) : null) ??
    (built.body !== given.body ? bodyProblem(built.body) : null)
  return problem === null ? null : `a request that cannot be sent: ${problem}`
}
