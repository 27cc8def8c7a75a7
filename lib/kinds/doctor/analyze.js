/**
 * `dyno doctor`'s analysis: from the collector's samples to the window under
 * load, its seconds, the figures of each signal, and the diagnoses, each
 * with its evidence, the rule it met and the command to run next. Pure.
 */
import { NEXT_COMMAND, nextCommand } from './next.js'
import { RULES, THRESHOLDS, healthy } from './rules.js'
import { findWindow, secondsOf } from './series.js'
import { summarize } from './summary.js'

/**
 * @typedef {import('./rules.js').Finding & { next: string }} Diagnosis
 *
 * @typedef {object} FullGc a full GC dyno had the app run, and its memory right after
 * @property {number} t epoch ms
 * @property {number} heapUsed bytes
 * @property {number} external bytes, array buffers included
 * @property {number} [inFlight] requests still at work when it ran (the wait for them ran out), -1 when unknown
 *
 * @typedef {{ before: FullGc | null, after: FullGc | null }} FullGcs around the load; none without one
 *
 * @typedef {object} DoctorAnalysis
 * @property {import('./series.js').LoadWindow | null} window
 * @property {import('./series.js').Second[]} seconds
 * @property {import('./summary.js').DoctorSummary | null} summary
 * @property {Diagnosis[]} diagnoses empty only when there is too little to judge (see `note`)
 * @property {string | null} note why there is no diagnosis
 */

/**
 * A full GC's reading as the agent sent it or full-gcs.json kept it, or null when it is not one.
 * @param {any} value
 * @returns {FullGc | null}
 */
export function fullGcOf (value) {
  if (!value || typeof value.t !== 'number' || typeof value.heapUsed !== 'number' || typeof value.external !== 'number') return null
  return { t: value.t, heapUsed: value.heapUsed, external: value.external, inFlight: typeof value.inFlight === 'number' ? value.inFlight : -1 }
}

/**
 * @param {object} input
 * @param {import('./series.js').DoctorSample[]} input.samples in time order
 * @param {{ startMs: number, endMs: number } | null} input.loadWindow when dyno drove the app
 * @param {'load' | 'on-port' | null} input.driver what drove it
 * @param {import('../../load/summary.js').LoadResult | null} input.load
 * @param {FullGcs} [input.fullGcs]
 * @param {import('./next.js').RunCommand} input.run how the run was started, for the next command
 * @param {boolean} [input.listened] false when dyno was to load the app and it never listened: nothing was under load
 * @param {string | null} [input.failed] how the app ended when it failed (crashed, exited with an error), else null
 * @returns {DoctorAnalysis}
 */
export function analyzeDoctor ({ samples, loadWindow, driver, load, fullGcs = { before: null, after: null }, run, listened = true, failed = null }) {
  const window = findWindow(samples, loadWindow, driver)
  if (!window) {
    // A process joined while its loop is held runs no collector's main side, so takes no sample.
    const note = run.pid !== undefined && failed === null
      ? `pid ${run.pid} took no sample while dyno was in: its event loop did not turn, so it is blocked; ${nextCommand('flame', run)} shows where it is held`
      : 'the app wrote no samples: it ended before the collector could take one'
    return { window: null, seconds: [], summary: null, diagnoses: [], note }
  }
  if (driver !== null && !listened) {
    // Its idle loop would read as healthy: no load ever reached it.
    return { window, seconds: [], summary: null, diagnoses: [], note: 'the app never listened on a port, so no load reached it: nothing to diagnose. Check that it starts a server (its output above says why not)' }
  }
  const seconds = secondsOf(samples, window, THRESHOLDS.heldTurnMs)
  const full = seconds.filter((s) => s.span >= THRESHOLDS.minSecondSpanMs)
  const summary = summarize(samples, seconds, window, load, fullGcs)
  if (full.length === 0) {
    // An app that died at once (a missing file, a syntax error) needs fixing, not a longer load.
    const note = failed !== null && window.source === 'run'
      ? `the app ${failed} within a second: too little to judge; fix what stopped it first`
      : `less than a second ${window.source === 'run' ? 'of samples' : 'under load'}: too little to judge; load the app for longer`
    return { window, seconds, summary, diagnoses: [], note }
  }
  const input = { seconds, full, summary, fullGcs, under: window.source === 'run' ? 'while it ran' : 'under load' }
  const findings = RULES.map((rule) => rule(input)).filter((finding) => finding !== null)
  if (findings.length === 0) findings.push(healthy(input))
  const diagnoses = findings.map((finding) => ({ ...finding, next: nextCommand(NEXT_COMMAND[finding.kind], run) }))
  return { window, seconds, summary, diagnoses, note: null }
}
