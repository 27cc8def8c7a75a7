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
 * @property {any} message what the worker reported, or null if it died first
 * @property {string} trace its stdout: V8's traces (and anything the benchmark printed)
 * @property {string} log the V8 log
 * @property {string} stderr
 * @property {boolean} timedOut
 */

/**
 * Runs one worker job in a fresh process.
 * @param {import('./worker.js').Job} job
 * @param {{ timeoutMs: number, execPath?: string }} options
 * @returns {Promise<WorkerOutcome>}
 */
export function runWorker (job, options) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-micro-'))
  const logFile = join(dir, 'v8.log')
  return new Promise((resolve) => {
    const child = fork(WORKER, [JSON.stringify(job)], {
      execPath: options.execPath ?? process.execPath,
      execArgv: job.type === 'measure' ? traceFlags(logFile) : [],
      env: { ...process.env, [WORKER_ENV]: '1' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced'
    })
    /** @type {any} */
    let message = null
    /** @type {Buffer[]} */
    const out = []
    let stderr = ''
    let timedOut = false
    child.stdout?.on('data', (d) => out.push(d))
    child.stderr?.setEncoding('utf8').on('data', (d) => { stderr = (stderr + d).slice(-4000) })
    child.on('message', (m) => { message = m })
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, options.timeoutMs)
    child.on('close', () => {
      clearTimeout(timer)
      let log = ''
      try {
        log = readFileSync(logFile, 'utf8')
      } catch {}
      rmSync(dir, { recursive: true, force: true })
      resolve({ message, trace: Buffer.concat(out).toString('utf8'), log, stderr, timedOut })
    })
  })
}
