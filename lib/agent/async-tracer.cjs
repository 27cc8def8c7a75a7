'use strict'
/**
 * The async collector's main-thread side: which async operations each HTTP
 * request of the app created, and when each was created, resolved and
 * continued.
 *
 * The root of a request is the server's request, from the
 * `http.server.request.start` diagnostics channel. A traced request owns the
 * async id the app's handler runs in, and every operation created while an
 * id it owns runs is its too (async_hooks' init says who made what), so each
 * operation is known to belong to the request; V8's promise hooks say when a
 * traced promise settles and when its continuation runs.
 *
 * By ids, not by marking async resources as AsyncLocalStorage does on Node
 * 20 and 22: that needs `executionAsyncResource()`, and once it has been
 * called, Node routes every callback of the app through a JavaScript
 * trampoline for as long as the process lives, traced or not.
 *
 * One request in `sample` is traced; the others are only counted. And until
 * `minTraced` are, any request that starts while none is traced is traced
 * too, whatever the share: at any concurrency a short run traces enough
 * requests to judge. The hooks
 * are on only while a traced request is in flight, but then every request
 * that runs beside it pays for them too: so a request is traced only while
 * no more than one in `sample` of all requests so far has started under the
 * hooks. Alone, one request in `sample` is traced; fifty side by side, about
 * one in fifty times that. And no more than `perSecond` are traced in any
 * second (0: no limit), so that a server answering 50,000 requests a second
 * does not pay for a thousand traces a second it has no use for.
 *
 * A request that writes to a connection it did not open (a pool's) waits for
 * its answer in the connection's context: from that write until another
 * writes, the connection's callbacks count as the request's, under an
 * operation of type SOCKETREPLY that stands for the wait (socket-writes.cjs).
 *
 * A traced request is handed over as one JSON line when it finishes, is
 * aborted, or runs longer than `maxTraceMs`; requests still open when
 * observing ends are handed over as they are.
 */
const { createHook, executionAsyncId } = require('node:async_hooks')
const { promiseHooks } = require('node:v8')
const { performance } = require('node:perf_hooks')
const { CallSites } = require('./call-sites.cjs')
const { socketAsyncId, watchSocketWrites } = require('./socket-writes.cjs')
const { permanent } = require('./installed.cjs')

/** On a traced promise: its operation. */
const OP = Symbol('dyno.async.op')

/**
 * Operations Node makes for its own bookkeeping (writes of a response):
 * traced, since the request's work can continue from them, but not worth a
 * stack each. Ticks have one: a client library often writes to its
 * connection from a tick the app's call scheduled (pg-pool does).
 */
const NO_SITE = new Set(['WRITEWRAP', 'SHUTDOWNWRAP', 'HTTPINCOMINGMESSAGE', 'HTTPSERVERASYNCRESOURCE'])
/** How far up the operations that made it a reply looks for the app's code, when the write had none on its stack. */
const REPLY_SITE_DEPTH = 4

/** Defaults; dyno passes its own. */
const DEFAULT_SAMPLE = 100
const DEFAULT_PER_SECOND = 50
const DEFAULT_MAX_OPS = 5000
const DEFAULT_MAX_TRACE_MS = 60_000
const DEFAULT_MIN_TRACED = 25
/** Ids of the SOCKETREPLY operations, far above any async id of the process's. */
const FIRST_REPLY_ID = 2 ** 40

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
 * @property {number} resolved a promise's resolution; for a SOCKETREPLY, the last thing the request did in the reply's callbacks
 * @property {number} before its first callback or continuation began
 * @property {number} resolvedBy the operation whose callback resolved it
 * @property {number} made how many operations its callbacks made so far
 */

class Trace {
  /**
   * @param {number} id
   * @param {{ method?: string, url?: string, socket?: object }} request
   */
  constructor (id, request) {
    this.id = id
    /** The connection the request came in on: writing the answer to it is no wait. */
    this.socket = request.socket
    this.start = performance.now()
    this.startEpoch = performance.timeOrigin + this.start
    this.method = String(request.method || '')
    this.path = String(request.url || '').split('?')[0].slice(0, 200)
    this.root = executionAsyncId()
    /** @type {Op[]} */
    this.ops = []
    this.dropped = 0
    this.done = false
    /** The response, and the listener on its 'close'. @type {import('node:events').EventEmitter | null} */
    this.response = null
    /** @type {() => void} */
    this.onClose = () => {}
  }

  now () {
    return performance.now() - this.start
  }
}

/**
 * @param {{ sample?: number, perSecond?: number, minTraced?: number, maxOps?: number, maxTraceMs?: number }} options
 * @param {(text: string, counts: object) => void} emit receives JSON lines (sites first) and the counts so far
 * @param {import('./installed.cjs').Installed} [installed] its subscribers go through it; undone, the
 *   tracer stops for good: hooks off, the socket patch out
 */
function startTracer (options, emit, installed = permanent) {
  const sample = Math.max(1, Math.floor(Number(options.sample) || DEFAULT_SAMPLE))
  const perSecond = options.perSecond === undefined ? DEFAULT_PER_SECOND : Math.max(0, Math.floor(Number(options.perSecond) || 0))
  const maxOps = Number(options.maxOps) || DEFAULT_MAX_OPS
  const maxTraceMs = Number(options.maxTraceMs) || DEFAULT_MAX_TRACE_MS
  const minTraced = options.minTraced === undefined ? DEFAULT_MIN_TRACED : Math.max(0, Math.floor(Number(options.minTraced) || 0))
  const sites = new CallSites()
  /** Traced requests in flight, by their request object. @type {Map<object, Trace>} */
  const inFlight = new Map()
  /** Operations of traced requests in flight, by async id. @type {Map<number, Op>} */
  const live = new Map()
  /**
   * The traced request in flight each async id belongs to: its handler's,
   * and those of every operation made for it (beyond `maxOps` too).
   * @type {Map<number, Trace>}
   */
  const owner = new Map()
  /**
   * Connections a traced request wrote to last, by the async id their
   * callbacks run in: their callbacks run as the request's SOCKETREPLY operation.
   * @type {Map<number, Op>}
   */
  const replies = new Map()
  let nextReplyId = FIRST_REPLY_ID
  /** hooked: requests that started while the hooks were on (and paid for them) */
  const counts = { requests: 0, finished: 0, traced: 0, hooked: 0 }
  let nextId = 1
  /** @type {string[]} */
  let lines = []
  /** The second (of performance.now()) the last trace started in, and how many started in it. */
  let second = -1
  let tracedInSecond = 0

  // A hook that throws ends the app: every hook and subscriber of the tracer stops it instead.
  // So does taking an attached agent out.
  let broken = false
  function stopForGood () {
    broken = true
    try {
      disable()
    } catch {}
    for (const trace of inFlight.values()) trace.response?.off('close', trace.onClose)
    inFlight.clear()
    live.clear()
    owner.clear()
    replies.clear()
  }

  /** The operation code running in `id` counts as: a connection's reply, or the id itself. @param {number} id */
  function asOp (id) {
    return replies.get(id)?.id ?? id
  }

  function init (/** @type {number} */ id, /** @type {string} */ type, /** @type {number} */ trigger, /** @type {any} */ resource) {
    try {
      record(id, type, trigger, resource)
    } catch {
      stopForGood()
    }
  }

  /** @param {number} id @param {string} type @param {number} trigger @param {any} resource */
  function record (id, type, trigger, resource) {
    const running = executionAsyncId()
    const exec = asOp(running)
    const trace = owner.get(exec)
    if (trace === undefined) return
    owner.set(id, trace)
    const now = performance.now()
    const maker = live.get(exec)
    if (maker !== undefined) began(maker, now)
    if (trace.ops.length >= maxOps) {
      trace.dropped++
      return
    }
    let site = -1
    if (!NO_SITE.has(type)) site = maker !== undefined && maker.site >= 0 ? sites.within(maker.site, maker.made++, type, init) : sites.capture(init, type === 'PROMISE')
    /** @type {Op} */
    const op = { id, type, site, trigger: trigger === running ? exec : trigger, exec, created: now, resolved: -1, before: -1, resolvedBy: -1, made: 0 }
    trace.ops.push(op)
    live.set(id, op)
    if (type === 'PROMISE') resource[OP] = op
  }

  /**
   * The callback of an operation is running at `now`: the first sign of it
   * is its start. (A hook on every callback's start would cost every
   * callback of the app a call into JavaScript.) A reply's wait ends with the
   * last sign: an answer may come in many reads.
   * @param {Op | undefined} op @param {number} now
   */
  function began (op, now) {
    if (op === undefined) return
    if (op.before === -1) op.before = now
    if (op.type === 'SOCKETREPLY') op.resolved = now
  }

  // Promises are followed through V8's own promise hooks, which call here directly.
  /** @param {any} promise */
  function promiseBefore (promise) {
    try {
      const op = promise[OP]
      if (op !== undefined && op.before === -1) op.before = performance.now()
    } catch {
      stopForGood()
    }
  }
  /** @param {any} promise */
  function promiseSettled (promise) {
    try {
      const op = promise[OP]
      if (op === undefined || op.resolved !== -1) return
      const by = asOp(executionAsyncId())
      op.resolved = performance.now()
      op.resolvedBy = by
      began(live.get(by), op.resolved)
    } catch {
      stopForGood()
    }
  }

  /**
   * A write to a socket: when a traced request writes to a connection it did
   * not open, it waits for the answer from now on.
   * @param {import('node:net').Socket} socket
   */
  function socketWritten (socket) {
    try {
      const id = socketAsyncId(socket)
      if (id < 0) return
      const exec = asOp(executionAsyncId())
      const trace = owner.get(exec)
      const held = replies.get(id)
      if (held !== undefined) replies.delete(id)
      // Written by an untraced request, or opened by the request itself (its callbacks are its own).
      if (trace === undefined || socket === trace.socket || owner.get(id) === trace) return
      const now = performance.now()
      const maker = live.get(exec)
      began(maker, now)
      if (trace.ops.length >= maxOps) {
        trace.dropped++
        return
      }
      let site = maker !== undefined && maker.site >= 0 ? sites.within(maker.site, maker.made++, 'SOCKETREPLY', socketWritten) : sites.capture(socketWritten, false)
      // Written from a tick the app's code scheduled: that code. Not from another reply: a pool
      // that sends a queued query when the one before is answered does so by itself.
      for (let up = maker, depth = 0; !sites.isApp(site) && up !== undefined && up.type !== 'SOCKETREPLY' && depth < REPLY_SITE_DEPTH; up = live.get(up.exec), depth++) {
        if (sites.isApp(up.site)) site = up.site
      }
      /** @type {Op} */
      const op = { id: nextReplyId++, type: 'SOCKETREPLY', site, trigger: exec, exec, created: now, resolved: -1, before: -1, resolvedBy: -1, made: 0 }
      trace.ops.push(op)
      live.set(op.id, op)
      owner.set(op.id, trace)
      replies.set(id, op)
    } catch {
      stopForGood()
    }
  }

  const hook = createHook({ init })
  /** @type {(() => void) | null} */
  let stopPromiseHooks = null
  /** @type {(() => void) | null} */
  let stopSocketWrites = null
  function enable () {
    hook.enable()
    stopPromiseHooks = /** @type {() => void} */ (promiseHooks.createHook({ before: promiseBefore, settled: promiseSettled }))
    stopSocketWrites = watchSocketWrites(socketWritten)
  }
  function disable () {
    hook.disable()
    stopPromiseHooks?.()
    stopPromiseHooks = null
    stopSocketWrites?.()
    stopSocketWrites = null
    replies.clear()
  }

  installed.onUndo(stopForGood)
  installed.subscribe('http.server.request.start', guarded((message) => {
    const { request, response } = /** @type {{ request: any, response: any }} */ (message)
    counts.requests++
    const hooked = inFlight.size > 0
    if (hooked) counts.hooked++
    const sampled = (counts.requests - 1) % sample === 0 && counts.hooked <= counts.requests / sample
    const wanted = sampled || (counts.traced < minTraced && !hooked)
    if (!wanted || !withinRate()) {
      // The handler runs in its connection's async id, which an earlier request may still own.
      if (hooked) owner.delete(executionAsyncId())
      return
    }
    const trace = new Trace(nextId++, request)
    counts.traced++
    if (!hooked) {
      counts.hooked++
      enable()
    }
    inFlight.set(request, trace)
    owner.set(trace.root, trace)
    trace.response = response
    trace.onClose = () => {
      if (!trace.done) guarded(() => finish(request, trace, response.writableFinished ? 'finished' : 'aborted', response.statusCode))(null)
    }
    response.once('close', trace.onClose)
  }))
  installed.subscribe('http.server.response.finish', guarded((message) => {
    const { request, response } = /** @type {{ request: any, response: any }} */ (message)
    counts.finished++
    if (inFlight.size === 0) return
    const trace = inFlight.get(request)
    if (!trace) return
    began(live.get(asOp(executionAsyncId())), performance.now())
    finish(request, trace, 'finished', response.statusCode)
  }))

  /** Whether one more trace may start in this second; counts it if so. */
  function withinRate () {
    if (perSecond === 0) return true
    const now = Math.floor(performance.now() / 1000)
    if (now !== second) {
      second = now
      tracedInSecond = 0
    }
    if (tracedInSecond >= perSecond) return false
    tracedInSecond++
    return true
  }

  /**
   * A subscriber that does nothing once the tracer stopped, and stops it
   * rather than throw into the app (diagnostics_channel rethrows).
   * @param {(message: unknown) => void} fn
   * @returns {(message: unknown) => void}
   */
  function guarded (fn) {
    return (message) => {
      if (broken) return
      try {
        fn(message)
      } catch {
        stopForGood()
      }
    }
  }

  /**
   * @param {object} request @param {Trace} trace
   * @param {'finished' | 'aborted' | 'open' | 'cut'} how @param {number} [status]
   */
  function finish (request, trace, how, status) {
    trace.done = true
    // A response still open (the end's, or one cut) keeps no listener of the tracer's.
    trace.response?.off('close', trace.onClose)
    lines.push(serialize(trace, how, trace.now(), status))
    inFlight.delete(request)
    for (const op of trace.ops) live.delete(op.id)
    for (const [id, op] of replies) if (owner.get(op.id) === trace) replies.delete(id)
    if (inFlight.size === 0) {
      owner.clear()
      disable()
    } else {
      for (const [id, owned] of owner) if (owned === trace) owner.delete(id)
    }
  }

  /** @param {Trace} trace @param {string} how @param {number} duration @param {number} [status] */
  function serialize (trace, how, duration, status) {
    let text = ''
    for (const site of sites.takeNew()) text += JSON.stringify({ type: 'site', ...site }) + '\n'
    const t = trace.start
    const ops = trace.ops.map((op) => [op.id, op.type, op.site, op.trigger, op.exec, since(op.created, t), since(op.resolved, t), since(op.before, t), op.resolvedBy])
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
    try {
      for (const [request, trace] of inFlight) {
        if (now - trace.start > maxTraceMs) finish(request, trace, 'cut')
        else if (final) finish(request, trace, 'open')
      }
    } catch {
      stopForGood()
    }
    const text = lines.join('')
    lines = []
    emit(text, { ...counts, sample, perSecond })
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
