import { fileURLToPath } from 'node:url'

/**
 * What the async collector wrote (`<pid>.async.jsonl`, see
 * lib/agent/collectors/async.cjs), read into plain objects. Lines that do
 * not parse (the last one of a crashed app may be cut) are skipped.
 *
 * @typedef {object} SiteFrame
 * @property {string} fn the function's name, '' for an anonymous one
 * @property {string} file a path (file:// URLs of ES modules are turned into paths)
 * @property {number} line 1-based
 * @property {number} column 1-based
 *
 * @typedef {object} AsyncSite where operations were created
 * @property {number} id
 * @property {SiteFrame[]} frames the app's own frames, innermost first; Node's or a dependency's when `app` is false
 * @property {boolean} app
 * @property {boolean} own the innermost frame is the app's: made by the app's own code, not inside a library it called
 *   (true in runs recorded before dyno told the two apart)
 * @property {SiteFrame | null} callee the function of Node's or a dependency's that the app's code called to make it
 *
 * @typedef {object} AsyncOp one async operation of a traced request; times in ms from the request's start, -1 for never
 * @property {number} id async id
 * @property {string} type async_hooks type: PROMISE, Timeout, FSREQCALLBACK, TCPWRAP, …; SOCKETREPLY for a wait
 *   on the answer of a connection the request did not open (a pool's): made by the write, settled when the answer's callback ran
 * @property {number} site -1 when not captured (Node's bookkeeping operations)
 * @property {number} trigger the operation it was made from; for a promise made by `await` or `then`, the promise awaited
 * @property {number} exec the operation whose callback or continuation made it
 * @property {number} created
 * @property {number} resolved a promise's resolution; a SOCKETREPLY's last callback
 * @property {number} before when its first callback or continuation began (for an operation other than a promise: the first thing it did, as seen by the tracer)
 * @property {number} resolvedBy the operation whose callback resolved it
 *
 * @typedef {object} TracedRequest
 * @property {number} id
 * @property {string} method
 * @property {string} path without its query string
 * @property {number | null} status
 * @property {'finished' | 'aborted' | 'open' | 'cut'} how open: still running when observing ended; cut: ran past the tracer's limit
 * @property {number} startMs epoch ms
 * @property {number} durationMs until it finished, or until it was written
 * @property {number} root the async id of the server's request: operations with this `exec` were made by the handler's first run
 * @property {number} dropped operations not recorded (past the per-request limit)
 * @property {AsyncOp[]} ops in the order they were created
 *
 * @typedef {object} AsyncCounts
 * @property {number} requests requests the app received while observed
 * @property {number} finished of which finished
 * @property {number} traced of which traced
 * @property {number} hooked of which started while a traced request was in flight (the tracer's hooks were on)
 * @property {number} sample one in how many is traced
 * @property {number} perSecond at most how many are traced a second (0: no limit)
 *
 * @typedef {object} AsyncData
 * @property {Map<number, AsyncSite>} sites
 * @property {TracedRequest[]} requests
 * @property {AsyncCounts} counts
 */

/**
 * @param {string} text
 * @returns {AsyncData}
 */
export function parseAsyncData (text) {
  /** @type {Map<number, AsyncSite>} */
  const sites = new Map()
  /** @type {TracedRequest[]} */
  const requests = []
  /** @type {AsyncCounts} */
  let counts = { requests: 0, finished: 0, traced: 0, hooked: 0, sample: 1, perSecond: 0 }
  for (const line of text.split('\n')) {
    if (!line) continue
    let record
    try {
      record = JSON.parse(line)
    } catch {
      continue
    }
    if (record?.type === 'site') sites.set(record.id, readSite(record))
    else if (record?.type === 'request') requests.push(readRequest(record))
    else if (record?.type === 'counts') counts = { requests: num(record.requests), finished: num(record.finished), traced: num(record.traced), hooked: num(record.hooked), sample: num(record.sample) || 1, perSecond: num(record.perSecond) }
  }
  return { sites, requests, counts }
}

/** @param {any} record @returns {AsyncSite} */
function readSite (record) {
  const frames = (Array.isArray(record.frames) ? record.frames : []).map(readFrame)
  const callee = Array.isArray(record.callee) ? readFrame(record.callee) : null
  return { id: num(record.id), frames, app: record.app === true, own: record.own !== false, callee }
}

/** @param {any[]} f @returns {SiteFrame} */
function readFrame (f) {
  return { fn: String(f[0] ?? ''), file: toPath(String(f[1] ?? '')), line: num(f[2]), column: num(f[3]) }
}

/** @param {any} record @returns {TracedRequest} */
function readRequest (record) {
  const ops = (Array.isArray(record.ops) ? record.ops : []).map((/** @type {any[]} */ o) => ({
    id: num(o[0]),
    type: String(o[1]),
    site: num(o[2], -1),
    trigger: num(o[3], -1),
    exec: num(o[4], -1),
    created: num(o[5]),
    resolved: num(o[6], -1),
    before: num(o[7], -1),
    resolvedBy: num(o[8], -1)
  }))
  const how = ['finished', 'aborted', 'open', 'cut'].includes(record.how) ? record.how : 'open'
  return {
    id: num(record.id),
    method: String(record.method ?? ''),
    path: String(record.path ?? ''),
    status: typeof record.status === 'number' ? record.status : null,
    how,
    startMs: num(record.startMs),
    durationMs: num(record.durationMs),
    root: num(record.root, -1),
    dropped: num(record.dropped),
    ops
  }
}

/** @param {unknown} value @param {number} [otherwise] */
function num (value, otherwise = 0) {
  return typeof value === 'number' && Number.isFinite(value) ? value : otherwise
}

/** @param {string} file */
function toPath (file) {
  if (!file.startsWith('file://')) return file
  try {
    return fileURLToPath(file)
  } catch {
    return file
  }
}

/**
 * What kind of wait an async_hooks type is, in the words of the reports.
 * @param {string} type
 */
export function opKind (type) {
  if (type === 'PROMISE') return 'promise'
  if (type === 'Timeout') return 'timer'
  if (type === 'Immediate' || type === 'TickObject' || type === 'Microtask') return 'tick'
  if (/^FS|^FILEHANDLE|^STATWATCHER/.test(type)) return 'fs'
  if (/^GETADDRINFO|^GETNAMEINFO|^QUERYWRAP/.test(type)) return 'dns'
  if (/^HTTP/.test(type)) return 'http'
  if (/^(TCP|PIPE|TLS|UDP|SEND|WRITE|SHUTDOWN|JSSTREAM|SOCKETREPLY)/.test(type)) return 'socket'
  if (/^(PBKDF2|RANDOM|SCRYPT|SIGN|VERIFY|HASH|KEY|CIPHER|DERIVE|CHECKPRIME|CRYPTO)/.test(type)) return 'crypto'
  if (type === 'ZLIB') return 'zlib'
  return 'other'
}
