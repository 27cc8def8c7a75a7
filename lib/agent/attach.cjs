'use strict'
/**
 * Brings dyno's agent into a Node.js process that is already running, and
 * takes it out again. dyno evaluates, on the process's main thread, through
 * its inspector:
 *
 *   process.getBuiltinModule('node:module').createRequire(ATTACH)(ATTACH).attach({ runDir, socketPath, collectors })
 *
 * attach() returns at once (nothing waits for the worker), with
 * `{ ok: true, pid }` or `{ ok: false, why }`. The agent starts as with
 * --require (main-thread.cjs: the same worker, collectors, files and
 * messages), and reports the servers the app already listens on.
 *
 * It ends when dyno sends 'stop' (end.json says how: 'detached'), when the
 * line to dyno drops or never opens ('channel-closed'), or on detach() here
 * ('detached'). The worker ends the collectors as ever, tells dyno 'stopped'
 * (unless the line dropped), closes the line and says 'detached' to this
 * thread, which then takes out everything the agent installed here
 * (installed.cjs: timers, listeners, diagnostics channel subscribers, async
 * and promise hooks, observers, globals), ends the worker, and drops dyno's
 * files from the module cache, so that a later attach loads them afresh.
 * A worker that dies is answered the same way. A process that exits while
 * attached ends as with --require (end.json: 'exit').
 *
 * What stays, for want of a way to take it out:
 * - the built-in modules loaded (node:worker_threads and the like), and
 *   Node's internal cache of where a require resolved to;
 * - the CPU collector's ES modules (lib/v8/, tiers.cjs): Node cannot unload an
 *   ES module; and the few small functions its tier reader compiled, whose
 *   scripts V8 keeps (a debugger lists them);
 * - under NODE_V8_COVERAGE, block coverage: V8 sets the whole isolate back
 *   to best-effort coverage whenever a session that enabled its profiler
 *   ends, as the CPU collector's does (see also profiler.cjs).
 */
const path = require('node:path')
const { isMainThread } = require('node:worker_threads')

const KEY = Symbol.for('dyno.agent')
const AGENT_DIR = __dirname + path.sep

/**
 * @typedef {{ ok: true, pid: number } | { ok: false, why: string, present?: true }} Answer
 *   present: dyno's agent is in the process already (another run's, or one on its way out)
 */

/**
 * @param {{ runDir: string, socketPath?: string | null, collectors: Record<string, object> }} options
 * @returns {Answer}
 */
function attach (options) {
  try {
    if (!isMainThread) return { ok: false, why: 'the agent is brought in on the main thread' }
    if (/** @type {any} */ (globalThis)[KEY]) return { ok: false, why: 'dyno\'s agent is already in this process', present: true }
    const why = invalid(options)
    if (why) return { ok: false, why }
    return start(options)
  } catch (err) {
    return { ok: false, why: String(/** @type {Error} */ (err)?.message ?? err) }
  }
}

/**
 * @param {{ runDir: string, socketPath?: string | null, collectors: Record<string, object> }} options
 * @returns {Answer}
 */
function start (options) {
  // The agent's files this attach loads, to be forgotten when it is taken out.
  const cached = new Set(Object.keys(require.cache))
  const { Installed } = require('./installed.cjs')
  const installed = new Installed(true)
  installed.onUndo(() => {
    for (const file of Object.keys(require.cache)) {
      if (file === __filename || (file.startsWith(AGENT_DIR) && !cached.has(file))) delete require.cache[file]
    }
  })
  const pid = process.pid
  /** @type {import('node:worker_threads').Worker} */
  let worker
  let gone = false
  const agent = {
    attached: true,
    pid,
    /** @returns {Answer} */
    detach () {
      if (gone || installed.undone) return { ok: false, why: 'the agent is being taken out already' }
      gone = true
      worker.postMessage({ type: 'detach' })
      return { ok: true, pid }
    }
  }
  installed.defineGlobal(KEY, agent)
  try {
    worker = require('./main-thread.cjs').startAgent({
      runDir: options.runDir,
      socketPath: options.socketPath || null,
      collectors: options.collectors,
      attached: true
    }, installed).worker
  } catch (err) {
    installed.undoAll()
    throw err
  }
  // Once observing has ended, the rest goes, and the worker with it (main-thread.cjs); if the worker died, too.
  installed.listen(worker, 'message', (/** @type {import('./protocol.cjs').WorkerMessage} */ message) => {
    if (message && message.type === 'detached') takeOut()
  })
  installed.listen(worker, 'exit', takeOut)
  // A 'message' listener refs the worker again: it must never keep the app alive.
  worker.unref()
  function takeOut () {
    gone = true
    installed.undoAll()
  }
  return { ok: true, pid }
}

/**
 * Has an attached agent end as on dyno's stop, and take itself out. The
 * answer comes at once; the agent is out once its worker has said 'detached'.
 * @returns {Answer}
 */
function detach () {
  const agent = /** @type {any} */ (globalThis)[KEY]
  if (!agent) return { ok: false, why: 'dyno\'s agent is not in this process' }
  if (typeof agent.detach !== 'function') return { ok: false, why: 'dyno\'s agent came with this process (--require): it stays' }
  return agent.detach()
}

/**
 * Why these options cannot be used, if they cannot.
 * @param {unknown} options
 * @returns {string | null}
 */
function invalid (options) {
  const o = /** @type {any} */ (options)
  if (!o || typeof o !== 'object') return 'no options'
  if (typeof o.runDir !== 'string' || !path.isAbsolute(o.runDir)) return 'runDir must be an absolute path'
  if (o.socketPath != null && typeof o.socketPath !== 'string') return 'socketPath must be a path or null'
  if (!o.collectors || typeof o.collectors !== 'object' || Array.isArray(o.collectors)) return 'collectors must be an object of collector options by name'
  return null
}

module.exports = { attach, detach }
