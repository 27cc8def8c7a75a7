import { describe, mean } from '../stats/describe.js'
import { tQuantile } from '../stats/t-distribution.js'
import { compareGroups } from '../stats/welch.js'
import { summarizeV8 } from './v8-summary.js'

/**
 * From what the case processes measured to what dyno micro reports. Pure:
 * tested on recorded data.
 *
 * Method: the process is the unit of replication. Each process yields one
 * number, its ops/sec (calls measured / time they took); a case's figure is
 * the mean over its processes, its ± the 95% confidence half-width of that
 * mean (t distribution, k - 1 degrees of freedom), and two cases are compared
 * with Welch's t-test on their per-process figures. Samples within a process
 * are far more alike than processes are (JIT decisions, memory layout, the
 * machine's state differ per process), so treating samples as independent
 * would print errors smaller than the differences between two runs.
 *
 * @typedef {object} ProcessRun what one worker process measured
 * @property {number} ops
 * @property {number} timeNs
 * @property {number} batch
 * @property {number[]} samples ns per call
 * @property {number | null} baselineNs an empty function's ns per call in the same loop
 * @property {boolean} async
 * @property {import('./v8-summary.js').ProcessV8} v8
 *
 * @typedef {object} CaseRuns
 * @property {string} group
 * @property {string} name
 * @property {ProcessRun[]} processes
 * @property {{ stage: string, message: string } | null} error
 *
 * @typedef {object} CaseSummary
 * @property {number} opsPerSecond mean over processes
 * @property {number} rme relative margin of error, percent (95%)
 * @property {number[]} processOpsPerSecond
 * @property {number} samples
 * @property {{ mean: number, p50: number, p99: number, min: number, max: number }} nsPerOp over all samples
 * @property {number | null} baselineNs
 * @property {boolean} optimizedAway no slower than an empty function
 */

/** Within this factor of the empty function's time, a call does no work worth measuring. */
const OPTIMIZED_AWAY = 1.25

/**
 * @param {ProcessRun[]} processes
 * @returns {CaseSummary}
 */
export function summarizeCase (processes) {
  const processOpsPerSecond = processes.map((p) => (p.ops / p.timeNs) * 1e9)
  const k = processOpsPerSecond.length
  const opsPerSecond = mean(processOpsPerSecond)
  const spread = describe(processOpsPerSecond, [])
  const rme = k > 1 ? (tQuantile(0.975, k - 1) * spread.stdev / Math.sqrt(k) / opsPerSecond) * 100 : NaN
  const all = processes.flatMap((p) => p.samples)
  const time = describe(all, [50, 99])
  const baselines = processes.map((p) => p.baselineNs).filter((b) => typeof b === 'number')
  const baselineNs = baselines.length > 0 ? mean(baselines) : null
  return {
    opsPerSecond,
    rme,
    processOpsPerSecond,
    samples: all.length,
    nsPerOp: { mean: 1e9 / opsPerSecond, p50: time.percentiles['50'], p99: time.percentiles['99'], min: time.min, max: time.max },
    baselineNs,
    optimizedAway: baselineNs !== null && 1e9 / opsPerSecond <= baselineNs * OPTIMIZED_AWAY
  }
}

/**
 * @typedef {object} CaseReport
 * @property {string} name
 * @property {{ stage: string, message: string } | null} error
 * @property {CaseSummary | null} summary
 * @property {import('../stats/welch.js').Comparison | null} againstFastest
 *   ratio: the fastest's ops/sec over this case's (how many times slower), with its 95% interval and Welch's test
 * @property {ReturnType<typeof summarizeV8> | null} v8
 * @property {ProcessRun[]} processes
 *
 * @typedef {object} GroupReport
 * @property {string} name '' for cases outside any group
 * @property {CaseReport[]} cases in declaration order
 * @property {{ names: string[], separated: boolean } | null} fastest the cases not significantly slower than the fastest; separated when that is one case
 */

/**
 * @param {string} name
 * @param {CaseRuns[]} runs the group's cases, in declaration order
 * @param {{ alpha?: number }} [options]
 * @returns {GroupReport}
 */
export function analyzeGroup (name, runs, options = {}) {
  const cases = runs.map((run) => {
    const ok = run.error === null && run.processes.length > 0
    return {
      name: run.name,
      error: run.error,
      summary: ok ? summarizeCase(run.processes) : null,
      againstFastest: null,
      v8: ok ? summarizeV8(run.processes.map((p) => p.v8)) : null,
      processes: run.processes
    }
  })
  /** @type {CaseReport[]} */
  const measured = cases.filter((c) => c.summary !== null)
  if (measured.length === 0) return { name, cases, fastest: null }
  const top = measured.reduce((a, b) => (/** @type {CaseSummary} */ (b.summary).opsPerSecond > /** @type {CaseSummary} */ (a.summary).opsPerSecond ? b : a))
  const topOps = /** @type {CaseSummary} */ (top.summary).processOpsPerSecond
  const tied = []
  for (const c of measured) {
    if (c === top) {
      tied.push(c.name)
      continue
    }
    const comparison = compareGroups(/** @type {CaseSummary} */ (c.summary).processOpsPerSecond, topOps, options)
    c.againstFastest = comparison
    if (!comparison.significant) tied.push(c.name)
  }
  return { name, cases, fastest: measured.length > 1 ? { names: tied, separated: tied.length === 1 } : { names: [top.name], separated: true } }
}
