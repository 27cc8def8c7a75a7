import { describe, mean, median } from '../stats/describe.js'
import { compareRounds } from '../stats/paired.js'
import { tQuantile } from '../stats/t-distribution.js'
import { summarize } from '../stats/welch.js'
import { summarizeV8 } from './v8-summary.js'

/**
 * From what the case processes measured to what dyno micro reports. Pure:
 * tested on recorded data.
 *
 * Method: the process is the unit of replication. Each process yields one
 * number, its ops/sec: it sampled in slices of a few milliseconds, each
 * slice's time per call is the mean over its samples (garbage collection
 * included), and the process's figure is the median over its slices, so a
 * slice in which another program took the CPU does not move it. A case's
 * ops/sec is the geometric mean over its processes, and its ± the 95%
 * confidence half-width of that mean (t distribution on the logs, k - 1
 * degrees of freedom). Two cases are compared round by round: their
 * processes of one round ran side by side, so the ratio of their figures is
 * free of what that moment of the machine did to both, and the per-round
 * log ratios go through Student's t-test (lib/stats/paired.js).
 *
 * @typedef {object} ProcessRun what one worker process measured
 * @property {number} round
 * @property {number | null} [cpu] the CPU the round's processes sampled on, when they could be gathered on one
 * @property {number} ops
 * @property {number} timeNs
 * @property {number} batch
 * @property {number[]} samples ns per call, one per sample (a batch of calls)
 * @property {number[]} slices ns per call, one per slice (the mean of its samples)
 * @property {number | null} baselineNs an empty function's ns per call in the same loop
 * @property {boolean} async
 * @property {import('./v8-summary.js').ProcessV8} v8
 *
 * @typedef {object} CaseRuns
 * @property {string} group
 * @property {string} name
 * @property {ProcessRun[]} processes
 * @property {MicroFailure | null} error
 *
 * @typedef {object} MicroFailure why a benchmark file or a case of it could not be run
 * @property {string} stage load, setup or run
 * @property {string} code a DYNO_BENCH_* code (lib/error-codes.js)
 * @property {string} message
 *
 * @typedef {object} CaseSummary
 * @property {number} opsPerSecond geometric mean over processes
 * @property {number} rme relative margin of error, percent (95%)
 * @property {number[]} processOpsPerSecond one figure per process
 * @property {number[]} processRounds the round of each
 * @property {number} samples
 * @property {{ mean: number, p50: number, p99: number, min: number, max: number }} nsPerOp over all samples; mean: 1e9 / opsPerSecond
 * @property {number | null} baselineNs
 * @property {boolean} optimizedAway no slower than an empty function
 */

/** Within this factor of the empty function's time, a call does no work worth measuring. */
const OPTIMIZED_AWAY = 1.25

/**
 * One process's ops/sec: from the median of its slices' time per call.
 * @param {ProcessRun} p
 */
export function processOpsPerSecond (p) {
  return p.slices.length === 0 ? NaN : 1e9 / median(p.slices)
}

/**
 * @param {ProcessRun[]} processes
 * @returns {CaseSummary}
 */
export function summarizeCase (processes) {
  const perProcess = processes.map(processOpsPerSecond)
  const logs = summarize(perProcess.map(Math.log))
  const opsPerSecond = Math.exp(logs.mean)
  const rme = logs.n > 1 ? (Math.exp(tQuantile(0.975, logs.n - 1) * Math.sqrt(logs.variance / logs.n)) - 1) * 100 : NaN
  const all = processes.flatMap((p) => p.samples)
  const time = describe(all, [50, 99])
  const baselines = processes.map((p) => p.baselineNs).filter((b) => typeof b === 'number')
  const baselineNs = baselines.length > 0 ? mean(baselines) : null
  return {
    opsPerSecond,
    rme,
    processOpsPerSecond: perProcess,
    processRounds: processes.map((p) => p.round),
    samples: all.length,
    nsPerOp: { mean: 1e9 / opsPerSecond, p50: time.percentiles['50'], p99: time.percentiles['99'], min: time.min, max: time.max },
    baselineNs,
    optimizedAway: baselineNs !== null && 1e9 / opsPerSecond <= baselineNs * OPTIMIZED_AWAY
  }
}

/**
 * Two cases' figures from the rounds that measured both, in round order.
 * @param {CaseSummary} a @param {CaseSummary} b
 * @returns {[number[], number[]]}
 */
export function pairByRound (a, b) {
  const inB = new Map(b.processRounds.map((round, i) => [round, b.processOpsPerSecond[i]]))
  /** @type {[number[], number[]]} */
  const pairs = [[], []]
  a.processRounds.forEach((round, i) => {
    const other = inB.get(round)
    if (other === undefined) return
    pairs[0].push(a.processOpsPerSecond[i])
    pairs[1].push(other)
  })
  return pairs
}

/**
 * @typedef {object} CaseReport
 * @property {string} name
 * @property {MicroFailure | null} error
 * @property {CaseSummary | null} summary
 * @property {ReturnType<typeof compareRounds> | null} againstFastest
 *   ratio: the fastest's ops/sec over this case's, round by round (how many times slower), with its 95% interval and p-value
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
  const tied = []
  for (const c of measured) {
    if (c === top) {
      tied.push(c.name)
      continue
    }
    const comparison = compareRounds(...pairByRound(/** @type {CaseSummary} */ (c.summary), /** @type {CaseSummary} */ (top.summary)), options)
    c.againstFastest = comparison
    if (!comparison.significant) tied.push(c.name)
  }
  return { name, cases, fastest: measured.length > 1 ? { names: tied, separated: tied.length === 1 } : { names: [top.name], separated: true } }
}
