'use strict'
/**
 * dyno's agent. dyno puts it into every Node.js process of the observed
 * command through NODE_OPTIONS (--require), so that it survives `npm start`
 * and child processes. It starts the collectors dyno asked for (by name, in
 * DYNO_COLLECTORS: `{ "cpu": { ... }, "doctor": { ... } }`) from the
 * process's first line of code, and they write what they collect into the
 * run folder as they go.
 *
 * It must add nothing visible to the app: no output, no open port (inspector
 * sessions are in-process), no handle that keeps the app alive, no change to
 * its exit code. Plain CommonJS with no dependencies, so it loads fast and
 * works for CommonJS and ES module apps alike.
 */
const { isMainThread } = require('node:worker_threads')

const KEY = Symbol.for('dyno.agent')

const registry = /** @type {Record<symbol, boolean>} */ (/** @type {unknown} */ (globalThis))

if (isMainThread && process.env.DYNO_RUN_DIR && !registry[KEY]) {
  registry[KEY] = true
  try {
    const collectors = JSON.parse(process.env.DYNO_COLLECTORS || '{}')
    require('./main-thread.cjs').startAgent({
      runDir: process.env.DYNO_RUN_DIR,
      socketPath: process.env.DYNO_AGENT_SOCKET || null,
      collectors: collectors && typeof collectors === 'object' ? collectors : {}
    })
  } catch {
    // Observing is never worth breaking the app for.
  }
}
