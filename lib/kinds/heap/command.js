import { readFileSync } from 'node:fs'
import { basename, relative } from 'node:path'
import { dynoError } from '../../errors.js'
import { collectorFile } from '../../observe/processes.js'
import { writeMeta } from '../../run-folder.js'
import { renderFolder } from './folder.js'
import { observeRun, settleLimitMs } from '../../commands/observed-run.js'

/** The longest dyno waits for one snapshot of a large heap. */
const SNAPSHOT_TIMEOUT_MS = 10 * 60_000
const SAMPLING_TIMEOUT_MS = 60_000

/**
 * @typedef {import('../../commands/observed-run.js').ObservingOptions & { sampling: boolean, rounds: number, samplingIntervalBytes: number }} HeapOptions
 *
 * @typedef {object} HeapResult
 * @property {string} folder
 * @property {import('../../run-folder.js').RunMeta} meta
 * @property {Awaited<ReturnType<typeof renderFolder>> | null} rendered null when there was nothing to compare
 * @property {import('../../load/summary.js').LoadResult[]} loads each round's load
 * @property {import('../../errors.js').DynoError | null} failure
 */

/**
 * `dyno heap`: heap snapshots of the app after a full GC, before the load
 * and after each of its rounds (two by default), compared by constructor,
 * with what keeps the growth alive; or, with `sampling`, V8's sampling heap
 * profiler during the load, as an allocation flamegraph. Without a load it
 * snapshots when the app starts and when it ends.
 * @param {HeapOptions} options
 * @param {import('../../commands/io.js').CommandIO} io
 * @returns {Promise<{ result: HeapResult, exitCode: number }>}
 */
export async function runHeap (options, io) {
  const driven = options.load !== null || options.onPort !== null
  // Joined with no load, the first snapshot waits for dyno's inspector session to be gone: V8
  // renumbers the heap's objects as a session ends, and the two snapshots would not match.
  const joinedIdle = Boolean(options.pid) && !driven && !options.sampling
  const status = (/** @type {string} */ message) => io.onEvent?.({ type: 'status', message })
  const run = await observeRun('heap', options, io, {
    collectors: { heap: options.sampling ? { sampling: !driven, intervalBytes: options.samplingIntervalBytes } : { atStart: !driven && !joinedIdle, atEnd: !driven } },
    onJoined: joinedIdle ? (agent) => takeSnapshot(agent, 'start', status, 0) : undefined,
    // Joined, the agent takes the last snapshot as it leaves: as long as a snapshot may take.
    agentStopMs: joinedIdle ? SNAPSHOT_TIMEOUT_MS : undefined,
    busy: (p) => p.files.heap?.length ?? 0,
    options: { sampling: options.sampling, rounds: options.sampling ? 1 : options.rounds },
    loadRounds: options.sampling ? 1 : options.rounds,
    onRound: driven ? (round, agent) => options.sampling ? sample(round, agent, options) : snapshot(round, agent, status, round === 0 ? 0 : settleLimitMs(options)) : undefined
  })
  const raw = collectorFiles(run.chosen, run.folder)
  run.meta.options = { ...run.meta.options, ...raw }
  writeMeta(run.folder, run.meta)
  const base = { folder: run.folder, meta: run.meta, loads: run.observed.loads }
  const enough = options.sampling ? raw.heapprofile !== null : raw.snapshots.length >= 2
  if (!enough) {
    const failure = run.failure ?? dynoError(options.sampling ? 'DYNO_NO_SNAPSHOT.sampling' : 'DYNO_NO_SNAPSHOT.snapshots', { how: run.end.how })
    // Stopped by Ctrl-C before the second snapshot: the run's own exit code (130) says so.
    return { result: { ...base, rendered: null, failure }, exitCode: run.failure || run.observed.interrupted ? run.exitCode : 1 }
  }
  const rendered = await renderFolder(run.folder, { onProgress: status })
  return { result: { ...base, rendered, failure: run.failure }, exitCode: run.exitCode }
}

/**
 * @param {number} round 0 before the load, then after each round
 * @param {import('../../observe/observe.js').AgentControl} agent
 * @param {(message: string) => void} status
 * @param {number} settleMs how long the requests still in flight may take to end first
 */
async function snapshot (round, agent, status, settleMs) {
  await takeSnapshot(agent, round === 0 ? 'before the load' : `after round ${round}`, status, settleMs)
}

/**
 * @param {import('../../observe/observe.js').AgentControl} agent
 * @param {string} label
 * @param {(message: string) => void} status
 * @param {number} settleMs
 */
async function takeSnapshot (agent, label, status, settleMs) {
  status(`heap snapshot ${label}…`)
  const reply = await agent.ask('heap', { action: 'snapshot', label, settleMs }, settleMs + SNAPSHOT_TIMEOUT_MS).catch((err) => ({ error: err.message }))
  if (reply.error) throw dynoError('DYNO_SNAPSHOT_FAILED.snapshot', { when: label, why: reply.error })
}

/**
 * @param {number} round
 * @param {import('../../observe/observe.js').AgentControl} agent
 * @param {HeapOptions} options
 */
async function sample (round, agent, options) {
  const command = round === 0 ? { action: 'start-sampling', intervalBytes: options.samplingIntervalBytes } : { action: 'stop-sampling' }
  const reply = await agent.ask('heap', command, SAMPLING_TIMEOUT_MS).catch((err) => ({ error: err.message }))
  if (reply.error) throw dynoError('DYNO_SNAPSHOT_FAILED.sampling', { why: reply.error })
}

/**
 * The heap files the observed process wrote, as the run folder's options
 * record them: snapshots in the order taken, their timings, the profile.
 * @param {import('../../observe/processes.js').ProcessRecord} chosen
 * @param {string} folder the run folder
 * @returns {Pick<import('./types.js').HeapRunOptions, 'snapshots' | 'timings' | 'heapprofile'>}
 */
function collectorFiles (chosen, folder) {
  const files = chosen.files.heap ?? []
  const number = (/** @type {string} */ file) => Number(/\.heap\.(\d+)\.heapsnapshot$/.exec(file)?.[1])
  const timingsFile = collectorFile(chosen, 'heap', 'snapshots.jsonl')
  const lines = timingsFile ? readFileSync(timingsFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []
  // A snapshot is whole once its line is written: one cut short (the app blocked, Ctrl-C) is left out.
  const whole = new Set(lines.map((t) => t.file))
  const snapshots = files.filter((f) => f.endsWith('.heapsnapshot') && whole.has(basename(f))).sort((a, b) => number(a) - number(b))
  const taken = new Set(snapshots.map((f) => basename(f)))
  /** @type {import('./types.js').SnapshotTiming[]} */
  const timings = lines.filter((t) => taken.has(t.file)).map((t) => ({ label: t.label, gcMs: t.gcMs, ms: t.ms, bytes: t.bytes, ...(t.inFlight > 0 ? { inFlight: t.inFlight } : {}) }))
  const profile = collectorFile(chosen, 'heap', 'heapprofile')
  return {
    snapshots: snapshots.map((file) => relative(folder, file)),
    timings,
    heapprofile: profile ? relative(folder, profile) : null
  }
}
