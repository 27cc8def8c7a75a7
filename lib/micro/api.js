import { errorInfo } from '../errors.js'
import { registry, WORKER_ENV } from './registry.js'

/**
 * What benchmark files import (`import { bench, group, keep, run } from 'dyno/micro'`).
 *
 * @typedef {import('./registry.js').CaseOptions} CaseOptions
 */

/**
 * Declares a case. `fn` is the timed operation; it may return a promise,
 * which is awaited. Whatever it returns is kept, so V8 cannot drop the work.
 * @template [S=undefined]
 * @param {string} name
 * @param {(state: S) => unknown} fn
 * @param {{ setup?: () => S | Promise<S>, inspect?: Function | Function[] | Record<string, Function> }} [options]
 */
export function bench (name, fn, options = {}) {
  const reg = registry()
  const group = reg.group ?? ''
  if (typeof name !== 'string' || name === '') {
    reg.problems.push(group ? errorInfo('DYNO_BENCH_BAD_CASE.noNameInGroup', { group }) : errorInfo('DYNO_BENCH_BAD_CASE.noName'))
  } else if (typeof fn !== 'function') {
    reg.problems.push(errorInfo('DYNO_BENCH_BAD_CASE.noFunction', { name }))
  } else if (reg.cases.some((c) => c.name === name && c.group === group)) {
    reg.problems.push(group ? errorInfo('DYNO_BENCH_BAD_CASE.twiceInGroup', { name, group }) : errorInfo('DYNO_BENCH_BAD_CASE.twice', { name }))
  } else {
    reg.cases.push({ name, group, fn: /** @type {(state: any) => any} */ (fn), options: /** @type {CaseOptions} */ (options) })
  }
}

/**
 * Cases declared inside `declare` are compared with each other, and only
 * with each other.
 * @param {string} name
 * @param {() => void} declare
 */
export function group (name, declare) {
  const reg = registry()
  const outer = reg.group
  reg.group = outer ? `${outer} › ${name}` : name
  try {
    declare()
  } finally {
    reg.group = outer
  }
}

const sink = new Array(16)
let sinkAt = 0

/**
 * Keeps a value alive so V8 cannot optimize away the work that made it, for
 * results a case computes but does not return.
 * @template T
 * @param {T} value
 * @returns {T}
 */
export function keep (value) {
  sink[sinkAt = (sinkAt + 1) & 15] = value
  return value
}

/**
 * Runs the benchmark file it is called from, the way `dyno micro <file>`
 * does (each case in its own processes), and prints the results. Under
 * `dyno micro` it does nothing, so one file serves both ways. Durations are
 * in seconds, as dyno micro's flags take them; `node bench.js --quick` and
 * `--json` work too.
 * @param {import('../cli/micro-standalone.js').RunOptions} [options]
 * @returns {Promise<number>} the exit code dyno micro would give
 */
export async function run (options = {}) {
  if (process.env[WORKER_ENV]) return 0
  const { runFromBenchmarkFile } = await import('../cli/micro-standalone.js')
  return runFromBenchmarkFile(options)
}
