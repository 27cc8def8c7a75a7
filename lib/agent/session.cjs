'use strict'
/**
 * The agent's main-thread side. It starts the agent's worker thread (which
 * drives the profiler, writes the profile and talks to dyno; see
 * worker.cjs), and tells it what only the main thread sees: that the app
 * listens, that an exception went uncaught, that the process is exiting.
 *
 * Files, in `<runDir>/raw/`: `<pid>.process.json` (who this process is),
 * `<pid>.listening.json`, and what the worker writes.
 */
const fs = require('node:fs')
const path = require('node:path')
const { Worker } = require('node:worker_threads')
const { onListening } = require('./listening.cjs')
const { prepareTierReader } = require('./tiers.cjs')

/** How long the process may wait for the worker: to start profiling, and to write the last chunk at exit. */
const START_WAIT_MS = 2000
const EXIT_WAIT_MS = 10_000

/**
 * @param {{ runDir: string, socketPath: string | null, samplingIntervalUs: number, chunkMs: number }} options
 */
function startAgent (options) {
  const dir = path.join(options.runDir, 'raw')
  fs.mkdirSync(dir, { recursive: true })
  const pid = process.pid
  const writeJson = (/** @type {string} */ name, /** @type {unknown} */ value) => {
    try {
      fs.writeFileSync(path.join(dir, `${pid}.${name}`), JSON.stringify(value))
    } catch {}
  }
  writeJson('process.json', {
    pid,
    ppid: process.ppid,
    argv: process.argv,
    execArgv: process.execArgv,
    cwd: process.cwd(),
    node: process.versions.node,
    v8: process.versions.v8,
    startedAt: new Date().toISOString()
  })

  // [0]: 1 once the worker profiles; [1]: 1 once it wrote the last chunk.
  const flags = new Int32Array(new SharedArrayBuffer(8))
  const worker = new Worker(path.join(__dirname, 'worker.cjs'), {
    workerData: { ...options, pid, dir, flags },
    stdout: true,
    stderr: true
  })
  worker.unref()
  worker.on('error', () => {})
  prepareTierReader()

  // The worker starts the profiler through the main thread, which must run
  // JavaScript to take the request: wait for it here, so the app's first
  // line is profiled.
  waitFor(flags, 0, START_WAIT_MS)

  onListening((address) => {
    writeJson('listening.json', address)
    worker.postMessage({ type: 'listening', address })
  })
  process.on('uncaughtExceptionMonitor', (err) => {
    const e = /** @type {Error} */ (err)
    worker.postMessage({ type: 'uncaught', uncaught: { name: String(e && e.name), message: String(e && e.message) } })
  })
  process.on('exit', (code) => {
    worker.postMessage({ type: 'exit', code })
    waitFor(flags, 1, EXIT_WAIT_MS)
  })
}

/**
 * Waits for the worker to set a flag, running JavaScript all the while
 * (Atomics.wait would block the worker's inspector requests to this thread).
 * @param {Int32Array} flags @param {number} index @param {number} ms
 */
function waitFor (flags, index, ms) {
  const until = Date.now() + ms
  while (Atomics.load(flags, index) === 0 && Date.now() < until);
}

module.exports = { startAgent }
