'use strict'
/**
 * The async collector's main-thread side: which async operations each HTTP
 * request of the app created, and when each was created, resolved and
 * continued.
 *
 * The root of a request is the server's request, from the
 * `http.server.request.start` diagnostics channel. One request in `sample`
 * is traced; the others are only counted. A traced request marks the async
 * resource the app's handler runs in, and async_hooks carries that mark to
 * every resource created from it (the way AsyncLocalStorage works), so each
 * operation is known to belong to the request. The hooks are enabled only
 * while a traced request is in flight: between them, the app runs without
 * them.
 *
 * A traced request is handed over as one JSON line when it finishes, is
 * aborted, or runs longer than `maxTraceMs`; requests still open when
 * observing ends are handed over as they are.
 */
const { createHook, executionAsyncId, executionAsyncResource } = require('node:async_hooks')
const diagnostics = require('node:diagnostics_channel')
const { CallSites } = require('./call-sites.cjs')

const TRACE = Symbol('dyno.async.trace')

/**
 * Operations Node makes for its own bookkeeping (ticks of streams, writes of
 * a response): traced, since the request's work can continue from them, but
 * not worth a stack each.
 */
const NO_SITE = new Set(['TickObject', 'WRITEWRAP', 'SHUTDOWNWRAP', 'HTTPINCOMINGMESSAGE', 'HTTPSERVERASYNCRESOURCE'])

/** Defaults; dyno passes its own. */
const DEFAULT_SAMPLE = 10
const DEFAULT_MAX_OPS = 5000
const DEFAULT_MAX_TRACE_MS = 60_000

/**
 * One operation: what it is, where it was made, from what, and when
 * (performance.now(); -1 for never).
 * @typedef {object} Op
 * @property {number} id async id
 * @property {string} type async_hooks type: PROMISE, Timeout, FSREQCALLBACK, TCPWRAP, …
 * @property {number} site
 * @property {number} trigger the operation it was made from (for a promise from `await` or `then`: the promise awaited)
 * @property {number} exec the operation whose callback or continuation made it
 * @property {number} created
 * @property {number} resolved a promise's resolution
 * @property {number} before its first callback or continuation began
 * @property {number} after and ended
 * @property {number} resolvedBy the operation whose callback resolved it
 */

class Trace {
  /**
   * @param {number} id
   * @param {{ method?: string, url?: string }} request
   */
  constructor (id, request) {
    this.id = id
    this.start = performance.now()
    this.startEpoch = performance.timeOrigin + this.start
    this.method = String(request.method || '')
    this.path = String(request.url || '').split('?')[0].slice(0, 200)
    this.root = executionAsyncId()
    /** @type {Op[]} */
    this.ops = []
    this.dropped = 0
    this.done = false
  }

  now () {
    return performance.now() - this.start
  }
}

/**
 * @param {{ sample?: number, maxOps?: number, maxTraceMs?: number }} options
 * @param {(text: string, counts: object) => void} emit receives JSON lines (sites first) and the counts so far
 */
function startTracer (options, emit) {
  const sample = Math.max(1, Math.floor(Number(options.sample) || DEFAULT_SAMPLE))
  const maxOps = Number(options.maxOps) || DEFAULT_MAX_OPS
  const maxTraceMs = Number(options.maxTraceMs) || DEFAULT_MAX_TRACE_MS
  const sites = new CallSites()
  /** Traced requests in flight, by their request object. @type {Map<object, Trace>} */
  const inFlight = new Map()
  /** Operations of traced requests in flight, by async id. @type {Map<number, Op>} */
  const live = new Map()
  const counts = { requests: 0, finished: 0, traced: 0 }
  let nextId = 1
  /** @type {string[]} */
  let lines = []

  function init (/** @type {number} */ id, /** @type {string} */ type, /** @type {number} */ trigger, /** @type {any} */ resource) {
    const trace = /** @type {any} */ (executionAsyncResource())[TRACE]
    if (!trace || trace.done) return
    resource[TRACE] = trace
    if (trace.ops.length >= maxOps) {
      trace.dropped++
      return
    }
    /** @type {Op} */
    const op = { id, type, site: NO_SITE.has(type) ? -1 : sites.capture(init, type === 'PROMISE'), trigger, exec: executionAsyncId(), created: performance.now(), resolved: -1, before: -1, after: -1, resolvedBy: -1 }
    trace.ops.push(op)
    live.set(id, op)
  }

  const hook = createHook({
    init,
    before (id) {
      const op = live.get(id)
      if (op !== undefined && op.before === -1) op.before = performance.now()
    },
    after (id) {
      const op = live.get(id)
      if (op !== undefined && op.after === -1) op.after = performance.now()
    },
    promiseResolve (id) {
      const op = live.get(id)
      if (op !== undefined && op.resolved === -1) {
        op.resolved = performance.now()
        op.resolvedBy = executionAsyncId()
      }
    }
  })
  diagnostics.subscribe('http.server.request.start', (message) => {
    const { request, response } = /** @type {{ request: any, response: any }} */ (message)
    counts.requests++
    const resource = /** @type {any} */ (executionAsyncResource())
    if ((counts.requests - 1) % sample !== 0) {
      // The connection's resource may still carry an earlier request's mark.
      if (inFlight.size > 0) resource[TRACE] = null
      return
    }
    const trace = new Trace(nextId++, request)
    counts.traced++
    if (inFlight.size === 0) hook.enable()
    inFlight.set(request, trace)
    resource[TRACE] = trace
    response.once('close', () => {
      if (!trace.done) finish(request, trace, response.writableFinished ? 'finished' : 'aborted', response.statusCode)
    })
  })
  diagnostics.subscribe('http.server.response.finish', (message) => {
    const { request, response } = /** @type {{ request: any, response: any }} */ (message)
    counts.finished++
    const trace = inFlight.get(request)
    if (trace) finish(request, trace, 'finished', response.statusCode)
  })

  /**
   * @param {object} request @param {Trace} trace
   * @param {'finished' | 'aborted' | 'open' | 'cut'} how @param {number} [status]
   */
  function finish (request, trace, how, status) {
    trace.done = true
    lines.push(serialize(trace, how, trace.now(), status))
    inFlight.delete(request)
    for (const op of trace.ops) live.delete(op.id)
    if (inFlight.size === 0) hook.disable()
  }

  /** @param {Trace} trace @param {string} how @param {number} duration @param {number} [status] */
  function serialize (trace, how, duration, status) {
    let text = ''
    for (const site of sites.takeNew()) text += JSON.stringify({ type: 'site', ...site }) + '\n'
    const t = trace.start
    const ops = trace.ops.map((op) => [op.id, op.type, op.site, op.trigger, op.exec, since(op.created, t), since(op.resolved, t), since(op.before, t), since(op.after, t), op.resolvedBy])
    return text + JSON.stringify({
      type: 'request',
      id: trace.id,
      method: trace.method,
      path: trace.path,
      status: status ?? null,
      how,
      startMs: ms(trace.startEpoch),
      durationMs: ms(duration),
      root: trace.root,
      dropped: trace.dropped,
      ops
    }) + '\n'
  }

  /** Hands over what is ready; with `final`, the requests still open too. */
  function flush (final = false) {
    const now = performance.now()
    for (const [request, trace] of inFlight) {
      if (now - trace.start > maxTraceMs) finish(request, trace, 'cut')
      else if (final) finish(request, trace, 'open')
    }
    const text = lines.join('')
    lines = []
    emit(text, { ...counts, sample })
  }

  return { flush }
}

/** @param {number} value */
function ms (value) {
  return Math.round(value * 100) / 100
}

/** A time as ms from `start`, -1 for never. @param {number} time @param {number} start */
function since (time, start) {
  return time === -1 ? -1 : ms(time - start)
}

module.exports = { startTracer }
