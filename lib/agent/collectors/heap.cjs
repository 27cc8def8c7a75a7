'use strict'
/**
 * The heap collector (`dyno heap`), driven through the worker's inspector
 * session to the main thread:
 * - heap snapshots, each after a full GC, when dyno asks (before the load
 *   and after each round of it). Chunks go to the file as V8 hands them
 *   over, so a snapshot never sits whole in memory. The app is paused
 *   meanwhile: how long is recorded.
 * - with `atStart`/`atEnd` (no load to wait for): a snapshot before the
 *   app's first line and one as it exits, taken on the main thread itself,
 *   since an exiting process answers no inspector request. Brought into a
 *   running process (attach.cjs), the worker takes them as observing starts
 *   and as it ends (unless the process exits first): the first line is long
 *   past and the exit may never come.
 * - V8's sampling heap profiler, between dyno's 'start-sampling' and
 *   'stop-sampling' (or the end).
 *
 * Files: `<pid>.heap.<n>.heapsnapshot`, `<pid>.heap.snapshots.jsonl` (one
 * line per snapshot: when, how long the GC and the snapshot took, bytes) and
 * `<pid>.heap.heapprofile` (DevTools' format).
 */
const fs = require('node:fs')
const path = require('node:path')
const v8 = require('node:v8')
const { setTimeout: sleep } = require('node:timers/promises')
const { watchOpenRequests } = require('../open-requests.cjs')
const { untilSettled } = require('../settle.cjs')

/** The longest a snapshot waits for the main side's count. */
const COUNT_WAIT_MS = 2000

/** @param {import('../collectors.cjs').MainContext} context */
function main (context) {
  const options = context.options || {}
  // The snapshots of both threads take their numbers from one count, so that no two share a file.
  const count = new Int32Array(new SharedArrayBuffer(4))
  context.post({ count })
  const snapshot = (/** @type {string} */ label) => {
    try {
      const n = Atomics.add(count, 0, 1)
      const name = `${context.pid}.heap.${n}.heapsnapshot`
      const startedAt = now()
      v8.writeHeapSnapshot(path.join(context.dir, name))
      const record = { n, label, file: name, startedAt, gcMs: 0, ms: now() - startedAt, bytes: fs.statSync(path.join(context.dir, name)).size }
      fs.appendFileSync(path.join(context.dir, `${context.pid}.heap.snapshots.jsonl`), JSON.stringify(record) + '\n')
    } catch {}
  }
  watchOpenRequests(context.installed)
  // Attached, the worker takes it: attach() must not hold the app's loop.
  if (options.atStart && !context.attached) snapshot('start')
  // Joined, a process that exits is not held up for a snapshot: it may be a production one shutting down.
  if (options.atEnd && !context.attached) context.installed.listen(process, 'exit', () => snapshot('end'))
}

/** @param {import('../collectors.cjs').WorkerContext} context */
function worker (context) {
  const session = context.session()
  const options = context.options || {}
  /** The count shared with the main side, which posts it as it starts. @type {Int32Array | null} */
  let count = null
  /** @type {() => void} */
  let counted = () => {}
  const countPosted = new Promise((resolve) => { counted = () => resolve(undefined) })
  context.onMain((message) => {
    if (!message || !message.count) return
    count = message.count
    counted()
  })
  let taken = 0
  let sampling = false
  let ended = false
  /** Commands run one after the other. @type {Promise<unknown>} */
  let queue = Promise.resolve()
  /** @template T @param {() => Promise<T>} job @returns {Promise<T>} */
  const enqueue = (job) => {
    const run = queue.then(job, job)
    queue = run.catch(() => {})
    return run
  }
  const enabled = session.post('HeapProfiler.enable')

  /** @param {string} label @param {number} settleMs how long to wait for the requests in flight to end */
  async function snapshot (label, settleMs) {
    await enabled
    // What requests still at work hold is neither a leak nor growth: they let go of it once they end.
    const settled = await untilSettled(session, settleMs)
    if (settled.blocked) throw new Error('the app\'s event loop has not turned for 5 s: it is blocked, so V8 cannot take a snapshot (dyno doctor or dyno flame shows where it is held)')
    // Posted before this thread started, the count may still be on its way (inspector answers need no turn of this loop).
    if (!count) await Promise.race([countPosted, sleep(COUNT_WAIT_MS)])
    const n = count ? Atomics.add(count, 0, 1) : taken++
    const name = `${context.pid}.heap.${n}.heapsnapshot`
    const fd = fs.openSync(path.join(context.dir, name), 'w')
    let bytes = 0
    /** @param {{ params: { chunk: string } }} message */
    const onChunk = (message) => {
      bytes += fs.writeSync(fd, message.params.chunk)
    }
    session.session.on('HeapProfiler.addHeapSnapshotChunk', onChunk)
    const startedAt = now()
    let gcMs = 0
    try {
      await session.post('HeapProfiler.collectGarbage')
      gcMs = now() - startedAt
      await session.post('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
    } finally {
      session.session.off('HeapProfiler.addHeapSnapshotChunk', onChunk)
      fs.closeSync(fd)
    }
    const record = { n, label, file: name, startedAt, gcMs, ms: now() - startedAt, bytes, inFlight: settled.inFlight, settleMs: settled.waitedMs }
    context.append('snapshots.jsonl', JSON.stringify(record) + '\n')
    return record
  }

  /** @param {number} intervalBytes */
  async function startSampling (intervalBytes) {
    await enabled
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: intervalBytes,
      // Every allocation counts, also what a GC took back since: this is where memory is allocated.
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true
    })
    sampling = true
    return { sampling: true }
  }

  async function stopSampling () {
    if (!sampling) return { samples: 0 }
    sampling = false
    const { profile } = await session.post('HeapProfiler.stopSampling')
    context.write('heapprofile', JSON.stringify(profile))
    return { samples: profile.samples ? profile.samples.length : 0 }
  }

  context.onCommand((command) => enqueue(async () => {
    if (ended) return { error: 'observing has ended' }
    if (command.action === 'snapshot') return snapshot(String(command.label || ''), Math.max(0, Number(command.settleMs) || 0))
    if (command.action === 'start-sampling') return startSampling(Number(command.intervalBytes) || 32768)
    if (command.action === 'stop-sampling') return stopSampling()
    return { error: `unknown action ${command.action}` }
  }))

  const ready = options.sampling ? enqueue(() => startSampling(Number(options.intervalBytes) || 32768)).catch(() => {}) : undefined
  if (context.attached && options.atStart) enqueue(() => snapshot('start', 0)).catch(() => {})

  return {
    ready,
    async end (/** @type {string} */ how) {
      await enqueue(async () => {
        if (ended) return
        try {
          if (sampling) await stopSampling()
        } catch {}
        // At exit the main thread takes it (see main()).
        try {
          if (context.attached && options.atEnd && how !== 'exit') await snapshot('end', 0)
        } catch {}
        ended = true
      })
    }
  }
}

function now () {
  return performance.timeOrigin + performance.now()
}

module.exports = { main, worker }
