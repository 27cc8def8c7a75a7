'use strict'
/**
 * dyno's agent. `dyno flame` puts it into every Node.js process of the
 * profiled command through NODE_OPTIONS (--require), so that it survives
 * `npm start` and child processes. It profiles the process from its first
 * line of code and writes what it collects into the run folder as it goes.
 *
 * It must add nothing visible to the app: no output, no open port (the
 * inspector session is in-process), no handle that keeps the app alive, no
 * change to its exit code. Plain CommonJS with no dependencies, so it loads
 * fast and works for CommonJS and ES module apps alike.
 */
const { isMainThread } = require('node:worker_threads')

const KEY = Symbol.for('dyno.agent')

const registry = /** @type {Record<symbol, boolean>} */ (/** @type {unknown} */ (globalThis))

if (isMainThread && process.env.DYNO_RUN_DIR && !registry[KEY]) {
  registry[KEY] = true
  try {
    require('./session.cjs').startAgent({
      runDir: process.env.DYNO_RUN_DIR,
      socketPath: process.env.DYNO_AGENT_SOCKET || null,
      samplingIntervalUs: Number(process.env.DYNO_SAMPLING_INTERVAL) || 1000,
      chunkMs: Number(process.env.DYNO_CHUNK_MS) || 10000
    })
  } catch {
    // Profiling is never worth breaking the app for.
  }
}
