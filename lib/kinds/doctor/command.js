import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fullGcOf } from './analyze.js'
import { parseSamples } from './series.js'
import { collectorFile } from '../../observe/processes.js'
import { writeJson } from '../../run-folder.js'
import { FILES, renderFolder } from './folder.js'
import { observeRun, servingProcess, settleLimitMs } from '../../commands/observed-run.js'

/** A full GC of a heap of a few GB takes a few seconds; an app stuck in native code never answers. Past the wait for requests in flight. */
const FULL_GC_TIMEOUT_MS = 10_000

/**
 * @typedef {import('../../commands/observed-run.js').ObservingOptions & { sampleIntervalMs: number, loadFlags: string | null }} DoctorOptions
 *   loadFlags: the --load flags as given, for the next command printed
 *
 * @typedef {object} DoctorResult
 * @property {string} folder
 * @property {import('../../run-folder.js').RunMeta} meta
 * @property {ReturnType<typeof renderFolder>} rendered
 * @property {import('../../errors.js').DynoError | null} failure
 */

/**
 * `dyno doctor`: the app's event loop, CPU, memory, GC, handles and requests
 * over time while the load (or the --on-port command, or nothing) runs, the
 * diagnoses drawn from them, and the report. A failing app still gets its
 * report, from what was collected until it failed.
 * @param {DoctorOptions} options
 * @param {import('../../commands/io.js').CommandIO} io
 * @returns {Promise<{ result: DoctorResult, exitCode: number }>}
 */
export async function runDoctor (options, io) {
  /** @type {import('./analyze.js').FullGcs} */
  const fullGcs = { before: null, after: null }
  /** @type {number | null} the process the full GCs ran in: the one the load went to */
  let gcPid = null
  const driven = options.load !== null || options.onPort !== null
  const run = await observeRun('doctor', options, io, {
    collectors: { doctor: { sampleIntervalMs: options.sampleIntervalMs } },
    busy: cpuTime,
    options: { sampleIntervalMs: options.sampleIntervalMs, loadFlags: options.loadFlags },
    // A full GC before the load and one after it, while the app waits: what it still holds once the
    // load is over. Outside the load's window, so no figure under load counts them.
    onRound: driven
      ? async (round, agent) => {
        gcPid = agent.pid
        fullGcs[round === 0 ? 'before' : 'after'] = await askFullGc(agent, round === 0 ? 0 : settleLimitMs(options))
      }
      : undefined
  })
  const observed = servingProcess(run, requestsServed)
  const file = collectorFile(observed, 'doctor', 'jsonl')
  // Killed before its first line: the folder still renders, and says so.
  writeFileSync(join(run.folder, FILES.samples), file ? readFileSync(file) : '')
  writeJson(run.folder, FILES.timeline, run.observed.loadTimeline)
  // In a cluster the load goes to the primary, which ran them: they say nothing of the worker observed.
  writeJson(run.folder, FILES.fullGcs, observed.pid === gcPid ? fullGcs : { before: null, after: null })
  const rendered = renderFolder(run.folder)
  return { result: { folder: run.folder, meta: run.meta, rendered, failure: run.failure }, exitCode: run.exitCode }
}

/**
 * A figure summed over a process's samples.
 * @param {import('../../observe/processes.js').ProcessRecord} process
 * @param {(sample: import('./series.js').DoctorSample) => number} pick
 */
function totalOf (process, pick) {
  const file = collectorFile(process, 'doctor', 'jsonl')
  if (!file) return 0
  let total = 0
  for (const sample of parseSamples(readFileSync(file, 'utf8'))) total += pick(sample)
  return total
}

/** The CPU a process used: the measure of a busy process, to choose one when none listened. */
const cpuTime = (/** @type {import('../../observe/processes.js').ProcessRecord} */ process) => totalOf(process, (s) => s.cpu.user + s.cpu.system)

/** The requests a process answered: the measure of a cluster's workers. */
const requestsServed = (/** @type {import('../../observe/processes.js').ProcessRecord} */ process) => totalOf(process, (s) => s.http?.finished ?? 0)

/**
 * A full GC of the app and its memory right after, or null when the app did
 * not answer: the analysis then does with the full GCs V8 ran on its own.
 * First, up to `settleMs`, the requests still in flight end.
 * @param {import('../../observe/observe.js').AgentControl} agent
 * @param {number} settleMs
 * @returns {Promise<import('./analyze.js').FullGc | null>}
 */
async function askFullGc (agent, settleMs) {
  return fullGcOf(await agent.ask('doctor', { action: 'full-gc', settleMs }, settleMs + FULL_GC_TIMEOUT_MS).catch(() => null))
}
