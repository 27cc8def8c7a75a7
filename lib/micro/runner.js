import { errorInfo } from '../errors.js'
import { v8Activity } from '../v8/trace.js'
import { analyzeGroup } from './analyze.js'
import { gatherOnOneCpu } from '../system/cpu-affinity.js'
import { runWorker, startWorker } from './spawn.js'
import { processV8 } from './v8-summary.js'

/**
 * Runs benchmark files: every case in fresh processes, one process per case
 * in each round, the rounds of a group one after another.
 *
 * A round starts one process for each case of the group, which load and warm
 * up together, then gathers them on one CPU (lib/system/cpu-affinity.js) and has them
 * take their samples in short slices, one process after the other (A B C,
 * C B A, A B C, ...), so that every case of the round is measured on the same
 * CPU in the same moments of the machine's life. On a shared machine a CPU's
 * speed drifts by 30% and more within a second (another job, a neighbour on
 * the host): measured side by side, that drift hits every case of the round
 * alike and cancels in their ratio, which is what the comparison tests. Only
 * one process samples at a time; the others wait idle.
 *
 * @typedef {object} MicroSettings
 * @property {number} rounds processes per case
 * @property {number} warmupMs per process, before sampling
 * @property {number} timeMs sampling per process, in slices
 * @property {number} sliceMs about how long a process samples before the next one takes over
 * @property {number} sampleMs the length a sample (batch of calls) aims at
 * @property {number} timeoutMs longest a case's process may take to answer (load, warm up, one slice)
 * @property {string} [execPath] the node binary for the case processes
 *
 * @typedef {object} FileReport
 * @property {string} file
 * @property {import('./analyze.js').MicroFailure | null} error the file could not be loaded
 * @property {import('./analyze.js').GroupReport[]} groups
 *
 * @typedef {{ file: string, round: number, rounds: number, group: string }} Progress
 * @typedef {{ onProgress?: (p: Progress) => void, signal?: AbortSignal }} Hooks
 * @typedef {import('./analyze.js').CaseRuns} CaseRuns
 * @typedef {CaseRuns & { file: string }} FileRuns a case and the file it is loaded from
 */

/**
 * @param {string} file absolute path
 * @param {MicroSettings} settings
 * @param {Hooks} [hooks]
 * @returns {Promise<FileReport>}
 */
export async function runFile (file, settings, hooks = {}) {
  const listed = await listCases(file, settings)
  if ('error' in listed) return { file, error: listed.error, groups: [] }
  /** @type {FileRuns[]} */
  const runs = listed.cases.map((c) => ({ ...c, file, processes: [], error: null }))
  await runRounds(runs, settings, hooks, file)
  return { file, error: null, groups: groupNames(runs).map((g) => analyzeGroup(g, runs.filter((r) => r.group === g))) }
}

/**
 * The cases a benchmark file declares, from a process of its own.
 * @param {string} file absolute path
 * @param {MicroSettings} settings
 * @returns {Promise<{ cases: { group: string, name: string }[] } | { error: import('./analyze.js').MicroFailure }>}
 */
export async function listCases (file, settings) {
  const listed = await runWorker({ type: 'list', file }, { timeoutMs: settings.timeoutMs, execPath: settings.execPath })
  const message = listed.message
  if (message?.type !== 'cases') return { error: failure(message, listed, settings) }
  if (message.cases.length === 0) return { error: { stage: 'load', ...errorInfo('DYNO_BENCH_NO_CASES') } }
  return { cases: message.cases }
}

/** @param {{ group: string }[]} runs the groups, in the order their first case came */
export function groupNames (runs) {
  return [...new Set(runs.map((r) => r.group))]
}

/**
 * The rounds of every group, one group after another. Each run names the
 * file its case is loaded from, so that two versions of a case can share
 * a round.
 * @param {FileRuns[]} runs
 * @param {MicroSettings} settings
 * @param {Hooks} hooks
 * @param {string} shown the file progress names
 */
export async function runRounds (runs, settings, hooks, shown) {
  for (const group of groupNames(runs)) {
    const cases = runs.filter((r) => r.group === group)
    for (let round = 0; round < settings.rounds && !hooks.signal?.aborted; round++) {
      hooks.onProgress?.({ file: shown, round, rounds: settings.rounds, group })
      await runRound(cases, round, settings, hooks)
    }
  }
}

/**
 * One round: a fresh process per case, all warmed up, then sampled in
 * alternating slices. A case that fails is dropped from this and later
 * rounds; a round interrupted by the signal is left out altogether.
 * @param {FileRuns[]} cases the group's cases
 * @param {number} round
 * @param {MicroSettings} settings
 * @param {Hooks} hooks
 */
async function runRound (cases, round, settings, hooks) {
  const schedule = { warmupMs: settings.warmupMs, sampleMs: settings.sampleMs }
  const workerOptions = { timeoutMs: settings.timeoutMs, execPath: settings.execPath }
  // The empty-function baseline needs measuring once per case, not in every process.
  const live = rotate(cases.filter((c) => !c.error), round).map((run) => ({
    run,
    worker: startWorker({ type: 'measure', file: run.file, group: run.group, name: run.name, schedule, baseline: round === 0 }, workerOptions),
    /** @type {number[][]} */
    slices: [],
    batch: 0,
    async: false
  }))
  const stopAll = () => { for (const l of live) l.worker.kill() }
  hooks.signal?.addEventListener('abort', stopAll, { once: true })
  try {
    /**
     * Sends each process in `order` its request, one after the other, and
     * drops those that fail.
     * @param {typeof live} order
     * @param {(l: typeof live[number]) => object | undefined} request
     * @param {string} expected the answer's type
     * @param {(l: typeof live[number], answer: any) => void} take
     */
    const each = async (order, request, expected, take) => {
      for (const l of order) {
        if (hooks.signal?.aborted) return
        if (!live.includes(l)) continue
        const answer = await l.worker.ask(request(l))
        if (hooks.signal?.aborted) return
        if (answer?.type === expected) {
          take(l, answer)
        } else {
          l.run.error = failure(answer, await l.worker.ended(), settings)
          live.splice(live.indexOf(l), 1)
        }
      }
    }
    await each([...live], () => undefined, 'warm', (l, answer) => {
      l.async = answer.async
      l.batch = answer.batch
    })
    const cpu = gatherOnOneCpu(live.map((l) => l.worker.pid))
    const slices = Math.max(1, Math.round(settings.timeMs / settings.sliceMs))
    for (let s = 0; s < slices; s++) {
      const order = s % 2 === 0 ? [...live] : [...live].reverse()
      await each(order, () => ({ type: 'sample', ms: settings.timeMs / slices }), 'slice', (l, answer) => { l.slices.push(answer.samples) })
    }
    /** @type {Map<typeof live[number], any>} */
    const finished = new Map()
    await each([...live], () => ({ type: 'finish' }), 'finished', (l, answer) => { finished.set(l, answer) })
    if (hooks.signal?.aborted) return
    for (const l of live) {
      const outcome = await l.worker.ended()
      const m = finished.get(l)
      const samples = l.slices.flat()
      l.run.processes.push({
        round,
        cpu,
        ops: l.batch * samples.length,
        timeNs: samples.reduce((sum, s) => sum + s * l.batch, 0),
        batch: l.batch,
        samples,
        slices: l.slices.map((slice) => slice.reduce((sum, s) => sum + s, 0) / slice.length),
        baselineNs: m.baselineNs,
        async: l.async,
        v8: processV8(m.status, v8Activity(outcome))
      })
    }
  } finally {
    hooks.signal?.removeEventListener('abort', stopAll)
    stopAll()
  }
}

/**
 * Round r starts at the r-th case; odd rounds go backwards, so each case
 * also comes after each other one about as often.
 * @template T
 * @param {T[]} items @param {number} round
 */
export function rotate (items, round) {
  const start = Math.floor(round / 2) % items.length
  const turned = [...items.slice(start), ...items.slice(0, start)]
  return round % 2 === 1 ? turned.reverse() : turned
}

/**
 * Why a worker brought back no result, in one line.
 * @param {any} message
 * @param {import('./spawn.js').WorkerOutcome} outcome
 * @param {MicroSettings} settings
 * @returns {import('./analyze.js').MicroFailure}
 */
function failure (message, outcome, settings) {
  if (message?.type === 'error') return { stage: message.stage, code: message.code, message: message.message }
  if (outcome.timedOut) return { stage: 'run', ...errorInfo('DYNO_BENCH_TIMEOUT', { seconds: settings.timeoutMs / 1000 }) }
  const last = outcome.stderr.trim().split('\n').filter((l) => l.trim() !== '').pop()
  return { stage: 'run', ...(last ? errorInfo('DYNO_BENCH_DIED.said', { line: last.trim() }) : errorInfo('DYNO_BENCH_DIED.plain')) }
}
