'use strict'
/**
 * The agent's main-thread side. It starts the agent's worker thread (which
 * runs the collectors' worker sides, writes, and talks to dyno; see
 * worker.cjs), runs the collectors' main-thread sides, and tells the worker
 * what only the main thread sees: that the app listens, that an exception
 * went uncaught, that the process is exiting.
 *
 * Files, in `<runDir>/raw/`: `<pid>.process.json` (who this process is),
 * `<pid>.listening.json`, and what the worker and the collectors write.
 */
const fs = require('node:fs')
const path = require('node:path')
const { Worker } = require('node:worker_threads')
const { onListening } = require('./listening.cjs')
const { loadCollector } = require('./collectors.cjs')
const { processFacts, unitWriter } = require('./unit-files.cjs')

/** How long the process may wait for the worker: to start the collectors, and to write the last data at exit. */
const START_WAIT_MS = 2000
const EXIT_WAIT_MS = 10_000

/** Flags the worker raises in shared memory, for a main thread that may not run its event loop again. */
const STARTED = 0
const ENDED = 1

/**
 * @param {{ runDir: string, socketPath: string | null, collectors: Record<string, object> }} options
 */
function startAgent (options) {
  const dir = path.join(options.runDir, 'raw')
  fs.mkdirSync(dir, { recursive: true })
  const pid = process.pid
  const write = unitWriter(dir, String(pid))
  write('process.json', processFacts())

  const flags = new Int32Array(new SharedArrayBuffer(8))
  const worker = new Worker(path.join(__dirname, 'worker.cjs'), {
    workerData: { dynoAgent: true, dir, pid, flags, socketPath: options.socketPath, collectors: options.collectors },
    stdout: true,
    stderr: true
  })
  worker.unref()
  worker.on('error', () => {})

  for (const [name, collectorOptions] of Object.entries(options.collectors)) {
    const collector = loadCollector(name)
    if (!collector || !collector.main) continue
    try {
      collector.main({
        pid,
        dir,
        options: collectorOptions,
        post: (/** @type {unknown} */ message) => worker.postMessage({ type: 'collector', collector: name, message })
      })
    } catch {}
  }

  // Collectors may need the main thread to answer the worker before they
  // run (the CPU profiler starts through it): wait here, running JavaScript,
  // so the app's first line is observed.
  waitFor(flags, STARTED, START_WAIT_MS)

  onListening((address) => {
    // The file names the TCP port a process serves on; a unix socket goes to dyno alone (for $SOCKET).
    if (address.port !== null) write('listening.json', JSON.stringify(address))
    worker.postMessage({ type: 'listening', address })
  })
  process.on('uncaughtExceptionMonitor', (err) => {
    const e = /** @type {Error} */ (err)
    worker.postMessage({ type: 'uncaught', uncaught: { name: String(e && e.name), message: String(e && e.message) } })
  })
  process.on('exit', (code) => {
    worker.postMessage({ type: 'exit', code })
    waitFor(flags, ENDED, EXIT_WAIT_MS)
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

module.exports = { startAgent, STARTED, ENDED }
