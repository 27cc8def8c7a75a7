import { spawnSync } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { errorInfo } from '../errors.js'
import { createOptimizationStatusReader } from '../v8/optimization-status.js'
import { registry } from './registry.js'
import { sampleFor, warmUp } from './timing.js'

/**
 * One child process, one job: list the cases of a benchmark file, or
 * measure one case in this fresh isolate. Started by lib/micro/spawn.js with
 * the job as JSON in argv[2]. A measuring worker loads the case and warms it
 * up, then does what the runner asks over IPC, one request at a time, so
 * that the runner can interleave the processes of a round:
 *
 *   (loaded, warmed up)     → { type: 'warm', async, batch }
 *   { type: 'sample', ms }  → { type: 'slice', samples }   (repeated)
 *   { type: 'finish' }      → { type: 'finished', baselineNs, status }, then the process ends
 *
 * Any failure is answered with { type: 'error', stage, code, message }, code
 * a DYNO_BENCH_* code (lib/error-codes.js).
 *
 * @typedef {{ warmupMs: number, sampleMs: number }} Schedule
 * @typedef {{ type: 'list', file: string }
 *   | { type: 'measure', file: string, group: string, name: string, schedule: Schedule, baseline: boolean }} Job
 * @typedef {{ type: 'sample', ms: number } | { type: 'finish' }} Request
 * @typedef {{ type: 'cases', cases: { group: string, name: string }[] }
 *   | { type: 'warm', async: boolean, batch: number }
 *   | { type: 'slice', samples: number[] }
 *   | { type: 'finished', baselineNs: number | null, status: unknown }
 *   | { type: 'error', stage: string, code: string, message: string }} Reply what the process answers
 */

const job = /** @type {Job} */ (JSON.parse(process.argv[2]))
/** @type {'load' | 'setup' | 'run'} */
let stage = 'load'

// Holds the process open until it has reported: a case whose promise never settles must run
// into the parent's timeout rather than end the process quietly.
const keepAlive = setInterval(() => {}, 1 << 30)

/** @param {Reply} message */
function send (message) {
  leaveIfOrphaned()
  process.send?.(message)
}

/** @param {Reply} message the last one: the process ends once it is sent */
function sendLast (message) {
  leaveIfOrphaned()
  process.send?.(message, () => {
    clearInterval(keepAlive)
    process.disconnect()
  })
}

/** @param {unknown} err */
function fail (err) {
  sendLast({ type: 'error', stage, ...describeError(err, job.file) })
}

process.on('uncaughtException', fail)
process.on('unhandledRejection', fail)
process.on('disconnect', leaveIfOrphaned)

/**
 * The run that forked this process is gone (killed, crashed): nobody reads
 * what it measures, and a send on the closed channel would only fail again
 * and again.
 */
function leaveIfOrphaned () {
  if (process.send && !process.connected) process.exit(0)
}

try {
  await import(pathToFileURL(job.file).href)
  const reg = registry()
  const declared = job.type === 'measure' ? reg.cases.find((c) => c.group === job.group && c.name === job.name) : undefined
  if (reg.problems.length > 0) {
    sendLast({ type: 'error', stage, ...reg.problems[0] })
  } else if (job.type === 'list') {
    sendLast({ type: 'cases', cases: reg.cases.map((c) => ({ group: c.group, name: c.name })) })
  } else if (!declared) {
    sendLast({ type: 'error', stage, ...errorInfo('DYNO_BENCH_CASE_GONE', { name: job.name }) })
  } else {
    await serve(declared, job)
  }
} catch (err) {
  fail(err)
}

/**
 * Sets the case up and warms it up, then answers the runner's requests until it asks to finish.
 * @param {import('./registry.js').DeclaredCase} declared
 * @param {Extract<Job, { type: 'measure' }>} job
 */
async function serve (declared, job) {
  stage = 'setup'
  const state = declared.options.setup ? await declared.options.setup() : undefined
  stage = 'run'
  const first = declared.fn(state)
  const async = typeof first?.then === 'function'
  if (async) await first
  const sink = new Array(16)
  const warm = await warmUp(declared.fn, state, async, job.schedule, sink)

  /** @param {Request} request */
  async function answer (request) {
    if (request.type === 'sample') {
      send({ type: 'slice', samples: await sampleFor(warm, declared.fn, state, request.ms, sink) })
    } else if (request.type === 'finish') {
      sendLast({ type: 'finished', baselineNs: job.baseline && !async ? await baseline(job.schedule, sink) : null, status: readStatus(declared) })
    }
  }
  // One request at a time, in the order they came.
  let queue = Promise.resolve()
  process.on('message', (/** @type {Request} */ request) => {
    queue = queue.then(() => answer(request)).catch(fail)
  })
  send({ type: 'warm', async, batch: warm.batch })
}

/**
 * An empty function's time per call in the same kind of loop: what a case
 * that V8 optimized away would measure.
 * @param {Schedule} schedule @param {unknown[]} sink
 */
async function baseline (schedule, sink) {
  const empty = () => {}
  const warm = await warmUp(empty, undefined, false, { ...schedule, warmupMs: Math.min(schedule.warmupMs, 20) }, sink)
  const samples = await sampleFor(warm, empty, undefined, 20, sink)
  return samples.reduce((sum, s) => sum + s, 0) / samples.length
}

/**
 * The optimization status of the case and of the functions it names in `inspect`.
 * @param {import('./registry.js').DeclaredCase} declared
 */
function readStatus (declared) {
  const read = createOptimizationStatusReader()
  return {
    case: read(declared.fn),
    inspected: inspectList(declared.options.inspect).map(({ name, fn }) => ({ name, ...read(fn) }))
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
 * What the user's code threw, as the failure of the stage it threw in: one
 * line, with where in the user's files. A SyntaxError at load that no code
 * of the user's threw is a file (or a module it imports) that does not parse.
 * @param {unknown} err
 * @param {string} file the benchmark file
 */
function describeError (err, file) {
  if (!(err instanceof Error)) {
    const thrown = { value: String(err) }
    if (stage === 'load') return errorInfo('DYNO_BENCH_LOAD_THREW.value', thrown)
    return stage === 'setup' ? errorInfo('DYNO_BENCH_SETUP_THREW.value', thrown) : errorInfo('DYNO_BENCH_CASE_THREW.value', thrown)
  }
  const stack = String(err.stack ?? '')
  // Syntax errors in ES modules carry the location on the stack's first line rather than in a frame.
  const found = /(file:\/\/[^\s)]+?:\d+(?::\d+)?)/.exec(stack)?.[1]
  const place = found && !found.includes('/lib/micro/') && !found.includes('/lib/v8/') ? shortPlace(found, file) : ''
  const values = { name: err.name, message: err.message.split('\n')[0] }
  if (!place && err instanceof SyntaxError && stage === 'load') {
    const at = syntaxErrorPlace(file)
    return at ? errorInfo('DYNO_BENCH_SYNTAX.at', { ...values, place: at }) : errorInfo('DYNO_BENCH_SYNTAX.plain', values)
  }
  if (!place) {
    if (stage === 'load') return errorInfo('DYNO_BENCH_LOAD_THREW.plain', values)
    return stage === 'setup' ? errorInfo('DYNO_BENCH_SETUP_THREW.plain', values) : errorInfo('DYNO_BENCH_CASE_THREW.plain', values)
  }
  if (stage === 'load') return errorInfo('DYNO_BENCH_LOAD_THREW.at', { ...values, place })
  return stage === 'setup' ? errorInfo('DYNO_BENCH_SETUP_THREW.at', { ...values, place }) : errorInfo('DYNO_BENCH_CASE_THREW.at', { ...values, place })
}

/**
 * A syntax error met by import() carries no location, but Node prints one
 * above the error when an import fails uncaught (`node --check` does not,
 * for a .js file that Node takes for a module by its syntax): import the
 * file again in a child and read that line. The file does not run: parsing
 * fails first.
 * @param {string} file
 */
function syntaxErrorPlace (file) {
  const { stderr } = spawnSync(process.execPath, ['--input-type=module', '-e', 'await import(process.argv[1])', pathToFileURL(file).href], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 10_000
  })
  const first = (stderr ?? '').split('\n', 1)[0]
  const place = /^((?:file:\/\/|\/).+:\d+)$/.exec(first)?.[1]
  return place ? shortPlace(place.startsWith('/') ? pathToFileURL(place).href : place, file) : ''
}

/** @param {string} place @param {string} file */
function shortPlace (place, file) {
  const dir = pathToFileURL(file).href.replace(/[^/]+$/, '')
  return place.startsWith(dir) ? place.slice(dir.length) : place.replace(/^file:\/\//, '')
}
