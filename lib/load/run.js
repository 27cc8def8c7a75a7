import { hostname } from 'node:os'
import { dynoError, revivedError } from '../errors.js'
import { engineConfig } from './config.js'
import { LoadEngine, prepareEngine } from './engine.js'
import { isLocalhost, loopbackAddress } from './loopback.js'
import { resolveOptions } from './options.js'
import { readsPastStream } from './raw-read.js'
import { rawWriter } from './raw-write.js'
import { loadRequestsFile } from './requests-file.js'
import { shareOf, stripe } from './segment.js'
import { mergeRaw, summarize } from './summary.js'
import { MAX_TIMER_MS } from './timers.js'

/** @typedef {import('./options.js').LoadOptions} LoadOptions */
/** @typedef {import('./summary.js').LoadResult} LoadResult */
/** @typedef {import('./engine.js').RawResult} RawResult */
/** @typedef {import('./engine.js').EngineTick} EngineTick */

/**
 * Runs an HTTP load and resolves with its result. Stop it early with
 * `options.signal`; the result then holds what was measured until then.
 *
 * @example
 * const result = await load({ url: 'http://127.0.0.1:3000/', connections: 100, duration: 10 })
 * console.log(result.requests.average, result.latency.percentiles['99'])
 *
 * @param {LoadOptions} options
 * @returns {Promise<LoadResult>}
 */
export async function load (options) {
  const signal = options.signal
  if (signal?.aborted) signal.throwIfAborted()
  const resolved = resolveOptions(options)
  if (resolved.requestsFile && !options.requests) resolved.requests = await loadRequestsFile(resolved.requestsFile)
  // localhost is two addresses; connect to the one the server listens on.
  if (isLocalhost(resolved.target.hostname) && resolved.target.socketPath === undefined) resolved.target.address = await loopbackAddress(resolved.target.port)
  /** @param {EngineTick} tick */
  const report = (tick) => options.onProgress?.({
    elapsed: tick.elapsedMs / 1000,
    duration: resolved.durationMs / 1000,
    responses: tick.responses,
    errors: tick.errors,
    amount: shareOf(resolved.amount, stripe([resolved.segment])),
    lastSecond: tick.lastSecondResponses,
    lastSecondLatency: tick.lastSecondLatency
  })
  if (resolved.startAt !== null) await untilStart(resolved.startAt, signal)
  const cpuBefore = process.cpuUsage()
  const raw = resolved.workers > 0
    ? await runInWorkers(resolved, report, signal)
    : await runHere(resolved, report, signal)
  const cpu = process.cpuUsage(cpuBefore)
  return summarize(raw, resolved, { interrupted: signal?.aborted ?? false, cpuMs: (cpu.user + cpu.system) / 1000, host: hostname(), pid: process.pid, rawWrite: rawWriter() !== null && readsPastStream })
}

/**
 * Waits for a common start (`--start-at`); a time already past starts at
 * once. Ctrl-C ends the wait, and the run then measures nothing.
 * @param {number} at epoch ms
 * @param {AbortSignal | undefined} signal
 */
async function untilStart (at, signal) {
  while (!signal?.aborted && Date.now() < at) {
    await new Promise((resolve) => {
      const timer = setTimeout(done, Math.min(MAX_TIMER_MS, at - Date.now()))
      signal?.addEventListener('abort', done, { once: true })
      function done () {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve(undefined)
      }
    })
  }
}

/**
 * @param {import('./options.js').ResolvedOptions} options
 * @param {(tick: EngineTick) => void} report
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<RawResult>}
 */
async function runHere (options, report, signal) {
  await prepareEngine(options.target)
  const engine = new LoadEngine({ ...engineConfig(options, options.requests, 0, 1), onTick: report })
  const stop = () => engine.stop()
  signal?.addEventListener('abort', stop, { once: true })
  try {
    const running = engine.run()
    // Stopped while the run was being prepared: it ends at once, with nothing measured.
    if (signal?.aborted) stop()
    return await running
  } finally {
    signal?.removeEventListener('abort', stop)
  }
}

/**
 * @param {import('./options.js').ResolvedOptions} options
 * @param {(tick: EngineTick) => void} report
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<RawResult>}
 */
async function runInWorkers (options, report, signal) {
  const parts = options.workers
  const { Worker } = await import('node:worker_threads')
  // Functions do not cross threads: workers load a requests file themselves.
  const shared = { ...options, url: options.url.href, requests: options.requestsFile ? undefined : options.requests }
  /** @type {EngineTick[]} */
  const ticks = []
  const workers = Array.from({ length: parts }, (_, index) => new Worker(new URL('./worker.js', import.meta.url), {
    workerData: { options: shared, index, parts }
  }))
  const results = workers.map((worker, index) => new Promise((resolve, reject) => {
    worker.on('message', (/** @type {import('./worker.js').WorkerMessage} */ message) => {
      if (message.type === 'result') {
        resolve(message.raw)
      } else if (message.type === 'error') {
        reject(revivedError(message))
      } else if (message.type === 'crash') {
        reject(dynoError('DYNO_INTERNAL.workerCrashed', { worker: index, detail: message.message }))
      } else if (message.type === 'tick') {
        ticks[index] = message.tick
        // Report once all workers have reported this second.
        if (ticks.filter(Boolean).length === parts) {
          report(ticks.reduce((sum, t) => ({
            elapsedMs: Math.max(sum.elapsedMs, t.elapsedMs),
            responses: sum.responses + t.responses,
            errors: sum.errors + t.errors,
            lastSecondResponses: sum.lastSecondResponses + t.lastSecondResponses,
            lastSecondLatency: mergeIntervals(sum.lastSecondLatency, t.lastSecondLatency)
          })))
          ticks.length = 0
        }
      }
    })
    worker.on('error', (err) => reject(dynoError('DYNO_INTERNAL.workerCrashed', { worker: index, detail: firstLine(err) })))
    worker.on('exit', (code) => reject(dynoError('DYNO_INTERNAL.workerExited', { worker: index, code })))
  }))
  const stop = () => { for (const worker of workers) worker.postMessage('stop') }
  signal?.addEventListener('abort', stop, { once: true })
  if (signal?.aborted) stop()
  try {
    return mergeRaw(await Promise.all(results))
  } finally {
    signal?.removeEventListener('abort', stop)
    stop()
    // A worker left behind by another's failure must not keep the process alive.
    for (const worker of workers) worker.unref()
  }
}

/** @param {unknown} err */
function firstLine (err) {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]
}

/**
 * The workers' last seconds as one, for the progress reports: the largest
 * p99 and max (an upper bound where the exact value would need every
 * histogram), and the median weighted by count.
 * @param {import('./histogram.js').IntervalLatency | null} a
 * @param {import('./histogram.js').IntervalLatency | null} b
 */
function mergeIntervals (a, b) {
  if (!a || !b) return a ?? b
  const count = a.count + b.count
  return { count, p50: (a.p50 * a.count + b.p50 * b.count) / count, p99: Math.max(a.p99, b.p99), max: Math.max(a.max, b.max) }
}
