import { fork } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { WORKER_ENV } from './registry.js'

const WORKER = fileURLToPath(new URL('./worker.js', import.meta.url))

/**
 * V8 reports optimizations, deoptimizations and inlining decisions on
 * stdout; the V8 log adds where each deoptimization happened. Every process
 * of every case runs with the same flags, so they cost all cases alike.
 * @param {string} logFile
 */
export function traceFlags (logFile) {
  return ['--trace-opt', '--trace-deopt', '--trace-turbo-inlining', '--log-deopt', `--logfile=${logFile}`, '--no-logfile-per-isolate']
}

/**
 * @typedef {object} WorkerOutcome
 * @property {any} message the last thing the worker reported, or null if it died first
 * @property {string} trace its stdout: V8's traces (and anything the benchmark printed)
 * @property {string} log the V8 log
 * @property {string} stderr
 * @property {boolean} timedOut
 *
 * @typedef {object} WorkerProcess
 * @property {(request?: object) => Promise<any>} ask sends `request`, if any, and waits for the
 *   worker's next message: null if the process ended first, or did not answer within the timeout
 *   (it is then stopped)
 * @property {() => Promise<WorkerOutcome>} ended waits for the process to end
 * @property {() => void} kill
 * @property {number} pid
 */

/**
 * Starts one worker job in a fresh process. The timeout applies to each
 * answer awaited, not to the process's life: a process idles while the
 * others of its round are measured.
 * @param {import('./worker.js').Job} job
 * @param {{ timeoutMs: number, execPath?: string }} options
 * @returns {WorkerProcess}
 */
export function startWorker (job, options) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-micro-'))
  const logFile = join(dir, 'v8.log')
  const child = fork(WORKER, [JSON.stringify(job)], {
    execPath: options.execPath ?? process.execPath,
    execArgv: job.type === 'measure' ? traceFlags(logFile) : [],
    env: { ...process.env, [WORKER_ENV]: '1' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'advanced'
  })
  /** @type {Buffer[]} */
  const out = []
  let stderr = ''
  let timedOut = false
  let closed = false
  /** @type {any} */
  let last = null
  /** @type {any[]} */
  const inbox = []
  /** @type {((message: any) => void) | null} */
  let waiting = null
  child.stdout?.on('data', (d) => out.push(d))
  child.stderr?.setEncoding('utf8').on('data', (d) => { stderr = (stderr + d).slice(-4000) })
  child.on('error', () => {}) // a request sent as the process dies; the close below tells the rest
  child.on('message', (m) => {
    last = m
    if (waiting) waiting(m)
    else inbox.push(m)
  })
  /** @type {Promise<WorkerOutcome>} */
  const ended = new Promise((resolve) => {
    child.on('close', () => {
      closed = true
      waiting?.(null)
      let log = ''
      try {
        log = readFileSync(logFile, 'utf8')
      } catch {}
      rmSync(dir, { recursive: true, force: true })
      resolve({ message: last, trace: Buffer.concat(out).toString('utf8'), log, stderr, timedOut })
    })
  })

  /** @param {object} [request] */
  function ask (request) {
    if (request && child.connected) child.send(request)
    if (inbox.length > 0) return Promise.resolve(inbox.shift())
    if (closed) return Promise.resolve(null)
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        timedOut = true
        child.kill('SIGKILL')
      }, options.timeoutMs)
      waiting = (message) => {
        clearTimeout(timer)
        waiting = null
        resolve(message)
      }
    })
  }

  return { ask, ended: () => ended, kill: () => { child.kill('SIGKILL') }, pid: child.pid ?? 0 }
}

/**
 * Runs a one-answer job (listing a file's cases) and waits for its process to end.
 * @param {import('./worker.js').Job} job
 * @param {{ timeoutMs: number, execPath?: string }} options
 * @returns {Promise<WorkerOutcome>}
 */
export async function runWorker (job, options) {
  const worker = startWorker(job, options)
  await worker.ask()
  return worker.ended()
}
