'use strict'
/**
 * dyno's agent. dyno puts it into every Node.js process of the observed
 * command through NODE_OPTIONS (--require), so that it survives `npm start`
 * and child processes; it runs in every worker thread too. It starts the collectors dyno asked for (by name, in
 * DYNO_COLLECTORS: `{ "cpu": { ... }, "doctor": { ... } }`) from the
 * process's first line of code, and they write what they collect into the
 * run folder as they go. A process already running gets it through
 * attach.cjs instead, and can have it taken out again.
 *
 * It must add nothing visible to the app: no output, no open port (inspector
 * sessions are in-process), no handle that keeps the app alive, no change to
 * its exit code. Plain CommonJS with no dependencies, so it loads fast and
 * works for CommonJS and ES module apps alike.
 */
const { isMainThread, workerData } = require('node:worker_threads')

const KEY = Symbol.for('dyno.agent')

const registry = /** @type {Record<symbol, boolean>} */ (/** @type {unknown} */ (globalThis))

// The agent's own worker thread loads this file too (it is a thread of the app's process).
const isAgentWorker = !isMainThread && workerData && workerData.dynoAgent === true

if (process.env.DYNO_RUN_DIR && !registry[KEY] && !isAgentWorker) {
  registry[KEY] = true
  try {
    const parsed = JSON.parse(process.env.DYNO_COLLECTORS || '{}')
    const collectors = parsed && typeof parsed === 'object' ? parsed : {}
    if (isMainThread) {
      require('./main-thread.cjs').startAgent({
        runDir: process.env.DYNO_RUN_DIR,
        socketPath: process.env.DYNO_AGENT_SOCKET || null,
        collectors
      })
    } else {
      require('./thread.cjs').startThreadAgent({ runDir: process.env.DYNO_RUN_DIR, collectors })
    }
  } catch {
    // Observing is never worth breaking the app for.
  }
}
