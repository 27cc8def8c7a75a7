import { v8Activity } from '../v8/trace.js'
import { analyzeGroup } from './analyze.js'
import { runWorker } from './spawn.js'
import { processV8 } from './v8-summary.js'

/**
 * Runs benchmark files: every case in fresh processes, in interleaved
 * rounds (A B C, then B C A, then C A B, ...). Interleaving spreads the
 * machine's drift over all cases alike; rotating the order keeps any case
 * from always running first, or always right after another.
 *
 * @typedef {object} MicroSettings
 * @property {number} rounds processes per case
 * @property {number} warmupMs per process, before sampling
 * @property {number} timeMs sampling per process
 * @property {number} sampleMs the length a sample (batch of calls) aims at
 * @property {number} timeoutMs longest a case's process may run before it is stopped
 * @property {string} [execPath] the node binary for the case processes
 *
 * @typedef {object} FileReport
 * @property {string} file
 * @property {{ stage: string, message: string } | null} error the file could not be loaded
 * @property {import('./analyze.js').GroupReport[]} groups
 *
 * @typedef {{ file: string, round: number, rounds: number, group: string, name: string }} Progress
 */

/**
 * @param {string} file absolute path
 * @param {MicroSettings} settings
 * @param {{ onProgress?: (p: Progress) => void, signal?: AbortSignal }} [hooks]
 * @returns {Promise<FileReport>}
 */
export async function runFile (file, settings, hooks = {}) {
  const workerOptions = { timeoutMs: settings.timeoutMs, execPath: settings.execPath }
  const listed = await runWorker({ type: 'list', file }, workerOptions)
  const message = listed.message
  if (message?.type !== 'cases') {
    return { file, error: failure(message, listed, settings), groups: [] }
  }
  if (message.cases.length === 0) {
    return { file, error: { stage: 'load', message: 'declares no cases; add some with bench(name, fn)' }, groups: [] }
  }
  /** @type {import('./analyze.js').CaseRuns[]} */
  const runs = message.cases.map((/** @type {{ group: string, name: string }} */ c) => ({ ...c, processes: [], error: null }))
  const schedule = { warmupMs: settings.warmupMs, timeMs: settings.timeMs, sampleMs: settings.sampleMs, minSamples: 5, maxSamples: 100_000 }

  for (let round = 0; round < settings.rounds && !hooks.signal?.aborted; round++) {
    for (const run of rotate(runs, round)) {
      if (run.error || hooks.signal?.aborted) continue
      hooks.onProgress?.({ file, round, rounds: settings.rounds, group: run.group, name: run.name })
      // The empty-function baseline needs measuring once per case, not in every process.
      const outcome = await runWorker({ type: 'measure', file, group: run.group, name: run.name, schedule, baseline: round === 0 }, workerOptions)
      const m = outcome.message
      if (m?.type !== 'measured') {
        run.error = failure(m, outcome, settings)
        continue
      }
      run.processes.push({
        ops: m.ops,
        timeNs: m.timeNs,
        batch: m.batch,
        samples: m.samples,
        baselineNs: m.baselineNs,
        async: m.async,
        v8: processV8(m.status, v8Activity(outcome))
      })
    }
  }

  const groupNames = [...new Set(runs.map((r) => r.group))]
  return { file, error: null, groups: groupNames.map((g) => analyzeGroup(g, runs.filter((r) => r.group === g))) }
}

/**
 * Round r runs the cases starting at the r-th; odd rounds go backwards, so
 * each case also follows each other one about as often.
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
 */
function failure (message, outcome, settings) {
  if (message?.type === 'error') return { stage: message.stage, message: message.message }
  if (outcome.timedOut) {
    return { stage: 'run', message: `did not finish within ${settings.timeoutMs / 1000} s (an async case that never settles? see --timeout)` }
  }
  const last = outcome.stderr.trim().split('\n').filter((l) => l.trim() !== '').pop()
  return { stage: 'run', message: `its process died${last ? `: ${last.trim()}` : ''}` }
}
