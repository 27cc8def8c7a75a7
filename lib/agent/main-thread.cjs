'use strict'
/**
 * The agent's main-thread side. It starts the agent's worker thread (which
 * runs the collectors' worker sides, writes, and talks to dyno; see
 * worker.cjs), runs the collectors' main-thread sides, and tells the worker
 * what only the main thread sees: that the app listens, that an exception
 * went uncaught, that the process is exiting. Started by attach.cjs in a
 * process already running, what it installs goes through an undoable
 * Installed (installed.cjs).
 *
 * Files, in `<runDir>/raw/`: `<pid>.process.json` (who this process is),
 * `<pid>.listening.json`, and what the worker and the collectors write.
 */
const fs = require('node:fs')
const path = require('node:path')
const { Worker } = require('node:worker_threads')
const { onListening, listeningNow } = require('./listening.cjs')
const { loadCollector } = require('./collectors.cjs')
const { permanent } = require('./installed.cjs')
const { processFacts, unitWriter } = require('./unit-files.cjs')

/** How long the process may wait for the worker: to start the collectors, and to write the last data at exit. */
const START_WAIT_MS = 2000
const EXIT_WAIT_MS = 10_000
/** Joined, a process's exit is held up less: it may be a production one shutting down, in its grace period. */
const ATTACHED_EXIT_WAIT_MS = 2000

/** Flags the worker raises in shared memory, for a main thread that may not run its event loop again. */
const STARTED = 0
const ENDED = 1

/**
 * @param {{ runDir: string, socketPath: string | null, collectors: Record<string, object>, attached?: boolean }} options
 *   attached: brought into a running process (attach.cjs): nothing waits, the servers already open are
 *   reported, and the worker takes the agent out when observing ends
 * @param {import('./installed.cjs').Installed} [installed] what is installed on this thread goes through it
 * @returns {{ worker: Worker }}
 */
function startAgent (options, installed = permanent) {
  const attached = options.attached === true
  const dir = path.join(options.runDir, 'raw')
  fs.mkdirSync(dir, { recursive: true })
  const pid = process.pid
  const write = unitWriter(dir, String(pid))
  write('process.json', processFacts(attached ? { attached: true } : undefined))

  const flags = new Int32Array(new SharedArrayBuffer(8))
  const worker = new Worker(path.join(__dirname, 'worker.cjs'), {
    workerData: { dynoAgent: true, dir, pid, flags, socketPath: options.socketPath, collectors: options.collectors, attached },
    stdout: true,
    stderr: true
  })
  worker.unref()
  worker.on('error', () => {})
  // Whatever fails below, the thread goes with the rest.
  installed.onUndo(() => { worker.terminate().catch(() => {}) })

  const mainSides = Object.entries(options.collectors).map(([name, collectorOptions]) => () => {
    const collector = loadCollector(name)
    if (!collector || !collector.main) return
    try {
      collector.main({
        pid,
        dir,
        options: collectorOptions,
        installed,
        attached,
        post: (/** @type {unknown} */ message) => worker.postMessage({ type: 'collector', collector: name, message })
      })
    } catch {}
  })
  if (!attached) {
    for (const start of mainSides) start()
    // Collectors may need the main thread to answer the worker before they
    // run (the CPU profiler starts through it): wait here, running
    // JavaScript, so the app's first line is observed.
    waitFor(flags, STARTED, START_WAIT_MS)
  }

  /** Servers found listening at attach, and where: their listen may yet be announced. @type {WeakMap<object, string>} */
  const found = new WeakMap()
  onListening(installed, (address, server) => {
    if (found.get(server) === JSON.stringify(address)) return
    found.delete(server)
    // The file names the TCP port a process serves on; a unix socket goes to dyno alone (for $SOCKET).
    if (address.port !== null) write('listening.json', JSON.stringify(address))
    worker.postMessage({ type: 'listening', address })
  })
  if (attached) {
    let named = false
    for (const { server, address } of listeningNow()) {
      found.set(server, JSON.stringify(address))
      // The file names the first TCP port; dyno hears of every one.
      if (address.port !== null && !named) named = write('listening.json', JSON.stringify(address))
      worker.postMessage({ type: 'listening', address })
    }
  }
  installed.listen(process, 'uncaughtExceptionMonitor', (err) => {
    const e = /** @type {Error} */ (err)
    worker.postMessage({ type: 'uncaught', uncaught: { name: String(e && e.name), message: String(e && e.message) } })
  })
  const onExit = (/** @type {number} */ code) => {
    worker.postMessage({ type: 'exit', code })
    waitFor(flags, ENDED, attached ? ATTACHED_EXIT_WAIT_MS : EXIT_WAIT_MS)
  }
  installed.listen(process, 'exit', onExit)
  // Attached, a running app is not held up: each collector's main side loads
  // and starts in a turn of its loop of its own (loading one takes a few ms).
  // Then the exit listener moves behind theirs, which hand over their last
  // data at exit, as with --require.
  if (attached) {
    installed.inTurns([...mainSides, () => {
      process.removeListener('exit', onExit)
      installed.listen(process, 'exit', onExit)
    }])
  }
  return { worker }
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
