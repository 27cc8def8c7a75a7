import { DEFAULTS } from '../load/options.js'
import { rmSync } from 'node:fs'
import { DynoError, dynoError } from '../errors.js'
import { describeAppEnd } from '../observe/app-end.js'
import { notNode } from '../observe/app.js'
import { onPortError } from '../observe/on-port.js'
import { observe } from '../observe/observe.js'
import { busiestOnPort, chooseProcess } from '../observe/processes.js'
import { loadFailure } from '../load/verdict.js'
import { displayUrl } from '../load/options.js'
import { createRunFolder, writeMeta } from '../run-folder.js'
import { observeHooks, signalExitCode } from './io.js'

/**
 * What flame, doctor, async and heap share: a run folder, the observe step
 * with their collectors, the process worth showing, how the app ended, the
 * run's meta.json and the exit code. Each command adds only its collectors
 * and its analysis.
 *
 * @typedef {object} ObservingOptions the options every observing command takes
 * @property {string[]} command empty with `pid`
 * @property {number | null} [pid] a process that already runs, observed without a restart
 * @property {boolean} [useOpenInspector] with `pid`: the inspector the process already has open may be used
 * @property {number | null} [durationMs] with `pid` and no load: how long to observe it
 * @property {import('../load/options.js').LoadOptions | null} load its url may hold `$PORT`
 * @property {string | null} onPort
 * @property {number} listenTimeoutMs
 * @property {number} [stopGraceMs]
 * @property {string} out the folder run folders go in
 * @property {boolean} [outputToStderr] the app's output goes to stderr, leaving stdout to dyno (--json)
 *
 * @typedef {object} ObservedRun
 * @property {string} folder
 * @property {import('../observe/observe.js').Observed} observed
 * @property {import('../observe/processes.js').ProcessRecord} chosen the process observed
 * @property {import('../observe/app-end.js').AppEnd} end how the app ended
 * @property {import('../run-folder.js').RunMeta} meta as written to the folder
 * @property {DynoError | null} failure what went wrong, in one line for the user
 * @property {number} exitCode
 */

/**
 * @param {import('../run-folder.js').RunKind} kind
 * @param {ObservingOptions} options
 * @param {import('./io.js').CommandIO} io
 * @param {{ collectors: Record<string, object>, busy: (p: import('../observe/processes.js').ProcessRecord) => number, options: Record<string, unknown>, loadRounds?: number, onRound?: import('../observe/observe.js').ObserveHooks['onRound'], nextLoad?: import('../observe/observe.js').ObserveHooks['nextLoad'], onJoined?: import('../observe/observe.js').ObserveHooks['onJoined'], agentStopMs?: number, folder?: string }} how
 *   the collectors, the measure of a busy process (to choose one when none listened), the options to record,
 *   for commands that work between rounds of load: how many rounds, and what to do between them (or, for rounds
 *   decided as they go, the load of each); what to do once joined to a running process, without a load; how long
 *   the agents may take to write their last data (a heap snapshot); and the
 *   folder to observe into when the caller made it (a run within a run), rather than a new run folder
 * @returns {Promise<ObservedRun>}
 */
export async function observeRun (kind, options, io, how) {
  const startedAt = new Date().toISOString()
  const folder = how.folder ?? createRunFolder(options.out, kind)
  let observed
  try {
    observed = await observe({
      command: options.command,
      pid: options.pid ?? null,
      useOpenInspector: options.useOpenInspector,
      durationMs: options.durationMs ?? null,
      cwd: io.cwd,
      env: io.env,
      folder,
      collectors: how.collectors,
      load: options.load,
      onPort: options.onPort,
      listenTimeoutMs: options.listenTimeoutMs,
      stopGraceMs: options.stopGraceMs,
      agentStopMs: how.agentStopMs,
      signal: io.signal,
      urgent: io.urgent,
      outputToStderr: options.outputToStderr,
      loadRounds: how.loadRounds
    }, { ...observeHooks(io), onRound: how.onRound, nextLoad: how.nextLoad, onJoined: how.onJoined })
  } catch (err) {
    // The app never started: there is nothing to keep.
    rmSync(folder, { recursive: true, force: true })
    throw err
  }
  const chosen = chooseProcess(observed.processes, how.busy, observed.listening?.pid ?? null)
  if (!chosen) {
    rmSync(folder, { recursive: true, force: true })
    if (observed.failure) throw observed.failure
    if (options.pid) throw dynoError('DYNO_PID_AGENT_FAILED', { pid: options.pid, why: 'it wrote nothing' })
    throw notNode(options.command)
  }
  const driver = options.load ? 'load' : options.onPort ? 'on-port' : null
  const failure = runFailure(observed)
  const end = describeAppEnd(chosen, observed.exit, { stoppedByDyno: observed.stoppedByDyno, killed: observed.killed, interrupted: observed.interrupted, driver, driverFailed: failure !== null, durationMs: options.durationMs ?? null, attached: observed.attached !== null })
  const argv = chosen.info?.argv ?? null
  /** @type {import('../run-folder.js').RunMeta} */
  const meta = {
    schemaVersion: 2,
    kind,
    title: options.pid ? `pid ${options.pid}${argv ? `: ${argv.join(' ')}` : ''}` : options.command.join(' '),
    target: options.pid ? { pid: options.pid, argv: argv ?? [], cwd: chosen.info?.cwd ?? io.cwd } : { argv: options.command, cwd: io.cwd },
    source: null,
    cwd: chosen.info?.cwd ?? io.cwd,
    node: chosen.info?.node ?? null,
    v8: chosen.info?.v8 ?? null,
    startedAt,
    finishedAt: new Date().toISOString(),
    options: { ...how.options, load: options.load ? displayUrl(options.load.url) : null, onPort: options.onPort },
    load: observed.load,
    loadWindow: observed.loadWindow,
    onPort: observed.onPort ? { command: observed.onPort.command, code: observed.onPort.code, signal: observed.onPort.signal, failed: observed.onPort.failed } : null,
    process: { pid: chosen.pid, argv: chosen.info?.argv ?? null, listening: chosen.listening },
    processes: observed.processes.filter((p) => p.threadId === 0).length,
    threads: observed.processes.filter((p) => p.threadId !== 0).length,
    end,
    ...(observed.attached ? { attached: observed.attached } : {})
  }
  writeMeta(folder, meta)
  return { folder, observed, chosen, end, meta, failure, exitCode: exitCode(observed, end, driver, failure, options.durationMs ?? null) }
}

/**
 * The process whose data a command shows: the chosen one or, when others
 * listened on its port too (a cluster: the primary listens first, its
 * workers answer), the busiest of them by the command's measure. meta.process
 * then says which, and how many shared the port.
 * @param {ObservedRun} run
 * @param {(p: import('../observe/processes.js').ProcessRecord) => number} busy
 */
export function servingProcess (run, busy) {
  const { process, sharing } = busiestOnPort(run.observed.processes, run.chosen, busy)
  if (sharing > 1) {
    run.meta.process = { pid: process.pid, argv: process.info?.argv ?? null, listening: process.listening, sharing }
    writeMeta(run.folder, run.meta)
  }
  return process
}

/**
 * What went wrong on dyno's side of the run, as one line for the user.
 * @param {import('../observe/observe.js').Observed} observed
 * @returns {DynoError | null}
 */
function runFailure (observed) {
  if (observed.failure) {
    return observed.failure instanceof DynoError ? observed.failure : dynoError('DYNO_LOAD_FAILED.broke', { why: /** @type {Error} */ (observed.failure).message })
  }
  if (observed.load && !observed.interrupted) {
    // The load judged as dyno load judges it: a target that answered nothing failed.
    const failure = loadFailure(observed.load)
    if (failure) return failure
  }
  const onPort = observed.onPort
  if (onPort?.failed) return onPortError(onPort)
  return null
}

/**
 * 0 when the run went as asked; 1 when the app failed (never listened, ended
 * while it was being loaded or before --duration was up, or, observed to its
 * end, crashed or exited with an error); 2 for a mistake; 128 + the signal when a load was cut short by
 * Ctrl-C or SIGTERM (a run without a load ends that way normally), or when
 * the app had to be killed after one.
 * @param {import('../observe/observe.js').Observed} observed
 * @param {import('../observe/app-end.js').AppEnd} end
 * @param {'load' | 'on-port' | null} driver
 * @param {DynoError | null} failure
 * @param {number | null} durationMs with --pid and no driver: how long dyno was to stay
 */
function exitCode (observed, end, driver, failure, durationMs) {
  if (failure) return failure.exitCode
  // Killed on a second Ctrl-C, the run was interrupted too, not a failure of the app's.
  if (observed.interrupted && (driver || observed.killed)) return signalExitCode(observed.interrupted)
  if (driver ? !end.stoppedByDyno : !end.clean) return 1
  // Joined for a while (--pid --duration), the process went before it was up.
  if (durationMs && !end.stoppedByDyno) return 1
  return 0
}

/**
 * How long a reading after a round of load (a full GC, a heap snapshot)
 * waits for the app's requests still in flight to end: as long as the load
 * lets a request wait for its answer.
 * @param {ObservingOptions} options
 */
export function settleLimitMs (options) {
  return (options.load?.timeout ?? DEFAULTS.timeout) * 1000
}
