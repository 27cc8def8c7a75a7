import { spawnSync } from 'node:child_process'
import { basename } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createOptimizationStatusReader } from '../v8/optimization-status.js'
import { registry } from './registry.js'
import { measure } from './timing.js'

/**
 * One child process, one job: list the cases of a benchmark file, or
 * measure one case in this fresh isolate and report over IPC. Started by
 * lib/micro/spawn.js with the job as JSON in argv[2].
 *
 * @typedef {{ type: 'list', file: string }
 *   | { type: 'measure', file: string, group: string, name: string, schedule: import('./timing.js').Schedule, baseline: boolean }} Job
 */

const job = /** @type {Job} */ (JSON.parse(process.argv[2]))
/** @type {'load' | 'setup' | 'run'} */
let stage = 'load'

// Holds the process open until it has reported: a case whose promise never settles must run
// into the parent's timeout rather than end the process quietly.
const keepAlive = setInterval(() => {}, 1 << 30)

/** @param {object} message */
function send (message) {
  process.send?.(message, () => {
    clearInterval(keepAlive)
    process.disconnect()
  })
}

/** @param {unknown} err */
function fail (err) {
  send({ type: 'error', stage, message: describeError(err, job.file) })
}

process.on('uncaughtException', fail)
process.on('unhandledRejection', fail)

try {
  await import(pathToFileURL(job.file).href)
  const reg = registry()
  if (reg.problems.length > 0) throw new Error(reg.problems[0])
  if (job.type === 'list') {
    send({ type: 'cases', cases: reg.cases.map((c) => ({ group: c.group, name: c.name })) })
  } else {
    const declared = reg.cases.find((c) => c.group === job.group && c.name === job.name)
    if (!declared) throw new Error(`the case "${job.name}" is no longer declared by the file`)
    send({ type: 'measured', ...await measureCase(declared, job) })
  }
} catch (err) {
  fail(err)
}

/**
 * @param {import('./registry.js').DeclaredCase} declared
 * @param {Extract<Job, { type: 'measure' }>} job
 */
async function measureCase (declared, job) {
  stage = 'setup'
  const state = declared.options.setup ? await declared.options.setup() : undefined
  stage = 'run'
  const first = declared.fn(state)
  const async = typeof first?.then === 'function'
  if (async) await first
  const sink = new Array(16)
  const measurement = await measure(declared.fn, state, async, job.schedule, sink)

  let baselineNs = null
  if (job.baseline && !async) {
    const empty = () => {}
    const short = { ...job.schedule, warmupMs: Math.min(job.schedule.warmupMs, 30), timeMs: Math.min(job.schedule.timeMs, 50) }
    const base = await measure(empty, undefined, false, short, sink)
    baselineNs = base.timeNs / base.ops
  }

  const read = createOptimizationStatusReader()
  const inspected = inspectList(declared.options.inspect)
  return {
    async,
    ...measurement,
    baselineNs,
    status: {
      case: read(declared.fn),
      inspected: inspected.map(({ name, fn }) => ({ name, ...read(fn) }))
    }
  }
}

/**
 * @param {import('./registry.js').CaseOptions['inspect']} inspect
 * @returns {{ name: string, fn: Function }[]}
 */
function inspectList (inspect) {
  if (!inspect) return []
  if (typeof inspect === 'function') return [{ name: inspect.name || '(anonymous)', fn: inspect }]
  /** @type {[string, unknown][]} */
  const entries = Array.isArray(inspect) ? inspect.map((fn) => [fn?.name || '(anonymous)', fn]) : Object.entries(inspect)
  return entries.filter(([, fn]) => typeof fn === 'function').map(([name, fn]) => ({ name, fn: /** @type {Function} */ (fn) }))
}

/**
 * One line: what was thrown, and where in the user's files.
 * @param {unknown} err
 * @param {string} file the benchmark file
 */
function describeError (err, file) {
  if (!(err instanceof Error)) return `threw ${String(err)}`
  const stack = String(err.stack ?? '')
  // Syntax errors in ES modules carry the location on the stack's first line rather than in a frame.
  const place = /(file:\/\/[^\s)]+?:\d+(?::\d+)?)/.exec(stack)?.[1]
  let where = place && !place.includes('/lib/micro/') && !place.includes('/lib/v8/') ? ` (${shortPlace(place, file)})` : ''
  if (!where && err instanceof SyntaxError && stage === 'load') where = syntaxErrorPlace(file)
  return `${err.name}: ${err.message.split('\n')[0]}${where}`
}

/**
 * A syntax error met by import() carries no location; node --check prints it.
 * @param {string} file
 */
function syntaxErrorPlace (file) {
  const { stderr } = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' })
  const line = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+)`).exec(stderr ?? '')?.[1]
  return line ? ` (${basename(file)}:${line})` : ''
}

/** @param {string} place @param {string} file */
function shortPlace (place, file) {
  const dir = pathToFileURL(file).href.replace(/[^/]+$/, '')
  return place.startsWith(dir) ? place.slice(dir.length) : place.replace(/^file:\/\//, '')
}
