import { mkdirSync } from 'node:fs'
import { setTimeout as delay } from 'node:timers/promises'
import { isAbsolute, join, relative } from 'node:path'
import { checkout } from '../../checkout.js'
import { COMPARISON_SCHEMA_VERSION, slowerGate } from '../../stats/comparison.js'
import { compareLoadRounds, roundFigures } from './load-rounds.js'
import { requestsInterval, stopReason } from './stopping.js'
import { PairRound, roundOrder, roundPlan } from './pair-round.js'
import { DynoError, dynoError, exitCodeOf, labelledError } from '../../errors.js'
import { resolveProgram } from '../../observe/command.js'
import { namesAppAddress } from '../../observe/load-url.js'
import { displayUrl } from '../../load/options.js'
import { createRunFolder, fileRunMeta, writeJson, writeMeta } from '../../run-folder.js'
import { compareLoadJson } from './json.js'
import { writeFlameDiff } from './flame-diff-command.js'
import { FILES } from './folder.js'
import { busySamples, mergedProfile } from '../../cpu-profile/profile-files.js'
import { signalExitCode } from '../../commands/io.js'
import { allowedCpus, cpusOf, pinProcesses } from '../../system/cpu-affinity.js'
import { processesCpuMs } from '../../system/process-cpu.js'
import { observeRun } from '../../commands/observed-run.js'

/**
 * `dyno compare --load`: two versions of a server, loaded with the same load
 * round after round, and compared round by round, until the rounds have
 * their answer (stopping.js) or their fixed number. The versions are the
 * working tree and a checkout of a git ref (`--against`), or two commands
 * (`--a`, `--b`).
 *
 * Warm rounds (the default) start both apps afresh for each round, side by
 * side, each on a port of its own, pinned to one CPU, warm them up and load
 * them at the same time or one at a time (pair-round.js). Fresh rounds
 * (`--fresh`) start each app for its one load, cold, one app at a time, the
 * order alternating. Every load that counts stays in the run folder.
 *
 * @typedef {import('./pair-round.js').Side} Side
 * @typedef {import('../../load/summary.js').LoadResult} LoadResult
 *
 * @typedef {import('./types.js').Version} Version
 *
 * @typedef {object} CompareLoadOptions
 * @property {import('../../load/options.js').LoadOptions} load its url holds `$PORT`
 * @property {{ against: string, command: string[] } | { a: string[], b: string[] }} versions
 * @property {number | null} rounds a fixed count of rounds, or null: until the answer is known (stopping.js)
 * @property {number} precision with rounds null: the half-width of the interval to reach, as a fraction (0.025)
 * @property {number} maxTimeMs with rounds null: no round starts that would end after this
 * @property {number | null} failIfSlower the regression gate's percent: exit code 3 when after is slower than that
 * @property {boolean} fresh
 * @property {boolean} pin run the apps and the load on CPUs of their own, where the system allows
 * @property {boolean} flame profile each side, for the CPU differential
 * @property {number} listenTimeoutMs
 * @property {number} stopGraceMs
 * @property {string} out
 * @property {boolean} [outputToStderr]
 *
 * @typedef {object} SideRun what one start of one side gave
 * @property {number} round
 * @property {LoadResult[]} loads the loads that count
 * @property {number | null} cpuMs the CPU time the app used during the loads that count
 * @property {boolean} warmingUp it ended (or was to go on) before its load that counts began
 * @property {import('../../commands/observed-run.js').ObservedRun} run
 *
 * @typedef {import('./types.js').CompareLoadResult} CompareLoadResult
 *
 * @typedef {{ profile: import('../../cpu-profile/cpuprofile.js').CpuProfile, requests: number, cwd: string }} CpuSide
 *
 * @typedef {object} CpuPlan which CPUs the apps and the load generator run on (lists like `0-3`)
 * @property {string} apps
 * @property {string} generator
 * @property {string} all what this process could run on before
 *
 * @typedef {object} RoundsRun
 * @property {Record<Side, SideRun[]>} sides every start of each side
 * @property {CpuPlan | null} cpus
 * @property {import('./pair-round.js').Mode | null} mode how warm rounds loaded the two (null: fresh rounds, or none ran)
 * @property {DynoError} [failure] a version that could not start, after rounds were done
 * @property {import('./stopping.js').StopReason | null} stopped why the rounds ended; null when a side failed or the run was stopped
 * @property {number} elapsedMs
 */

/**
 * @param {CompareLoadOptions} options
 * @param {import('../../commands/io.js').CommandIO} io
 * @returns {Promise<{ result: CompareLoadResult, exitCode: number }>}
 */
export async function runCompareLoad (options, io) {
  if (!namesAppAddress(options.load)) {
    throw dynoError('DYNO_BAD_URL.noPort', { url: displayUrl(options.load.url) })
  }
  const tree = 'against' in options.versions ? await checkout(io.cwd, options.versions.against) : null
  try {
    if (tree) io.onEvent?.({ type: 'checkout', ref: tree.ref, commit: tree.commit })
    const versions = tree && 'against' in options.versions
      ? againstVersions(options.versions.command, tree, io.cwd)
      : commandVersions(/** @type {{ a: string[], b: string[] }} */ (options.versions), io.cwd)
    // A typo in either command, before either app starts.
    for (const version of [versions.before, versions.after]) {
      try {
        resolveProgram(version.command[0], version.cwd, io.env)
      } catch (err) {
        throw labelled(err, version.label)
      }
    }
    const startedAt = new Date().toISOString()
    const folder = createRunFolder(options.out, 'compare')
    const startedMs = Date.now()
    // Both apps on one CPU, the load on the others: the two versions meet the same moments of one CPU.
    const plan = options.pin && !options.fresh ? cpuPlan() : null
    /** @type {{ plan: CpuPlan | null, pinned: boolean }} whether every process went where the plan said */
    const cpus = { plan, pinned: plan !== null && pinProcesses([process.pid], plan.generator) }
    let rounds
    try {
      rounds = options.fresh ? await freshRounds(options, versions, folder, io) : await warmRounds(options, versions, folder, cpus, io)
    } finally {
      // Some threads may have moved before a failure: all go back.
      if (plan) pinProcesses([process.pid], plan.all)
    }
    const done = finish(options, versions, folder, { ...rounds, cpus: cpus.pinned ? plan : null, elapsedMs: Date.now() - startedMs }, io)
    // What `dyno report` needs to render the folder again, from compare.json.
    const title = `${versions.before.label} → ${versions.after.label}`
    writeMeta(folder, { ...fileRunMeta('compare', { title, source: join(folder, FILES.result), cwd: io.cwd, options: { rounds: options.rounds, precision: options.precision, maxTimeMs: options.maxTimeMs, failIfSlower: options.failIfSlower, fresh: options.fresh, flame: options.flame } }), node: process.version, startedAt })
    return done
  } finally {
    await tree?.remove()
  }
}

/** The longest wait, after a load, for the requests it left in flight. */
const MAX_DRAIN_MS = 1000

/**
 * The last CPU this process may use for both apps, the others for the load
 * generator; null with fewer than two, or where they cannot be chosen.
 * @returns {CpuPlan | null}
 */
function cpuPlan () {
  const all = allowedCpus()
  const cpus = all === null ? [] : cpusOf(all)
  if (all === null || cpus.length < 2) return null
  return { generator: cpus.slice(0, -1).join(','), apps: String(cpus.at(-1)), all }
}

/**
 * The working tree after, the ref's checkout before; the command runs from
 * the same place in each, and a path into the repository points into the
 * checkout for the version before.
 * @param {string[]} command @param {import('../../checkout.js').Checkout} tree @param {string} cwd
 * @returns {{ before: Version, after: Version }}
 */
function againstVersions (command, tree, cwd) {
  const inRepo = relative(tree.root, cwd)
  const mapped = inRepo.startsWith('..') || isAbsolute(inRepo) ? cwd : join(tree.dir, inRepo)
  const intoCheckout = (/** @type {string} */ arg) => (arg === tree.root || arg.startsWith(tree.root + '/') ? tree.dir + arg.slice(tree.root.length) : arg)
  return {
    before: { label: tree.ref, command: command.map(intoCheckout), cwd: mapped, commit: tree.commit },
    after: { label: 'working tree', command, cwd, commit: null }
  }
}

/** @param {{ a: string[], b: string[] }} commands @param {string} cwd @returns {{ before: Version, after: Version }} */
function commandVersions (commands, cwd) {
  return {
    before: { label: 'a', command: commands.a, cwd, commit: null },
    after: { label: 'b', command: commands.b, cwd, commit: null }
  }
}

/**
 * Warm rounds: in each, both versions start afresh, side by side, warm up
 * and take the load that counts, at the same time or one at a time
 * (pair-round.js), until the rounds have their answer (stopping.js). A
 * fresh pair each round, because two processes of the same code differ by a
 * few percent for good (how the JIT went, where the heap landed): a pair
 * kept for every round would take that for a change.
 * @param {CompareLoadOptions} options @param {{ before: Version, after: Version }} versions
 * @param {string} folder @param {{ plan: CpuPlan | null, pinned: boolean }} cpus where the apps and the load go,
 *   and whether they went there (false once a pin failed)
 * @param {import('../../commands/io.js').CommandIO} io
 * @returns {Promise<Omit<RoundsRun, 'elapsedMs' | 'cpus'>>}
 */
async function warmRounds (options, versions, folder, cpus, io) {
  /** @type {Record<Side, SideRun[]>} */
  const sides = { before: [], after: [] }
  const startedMs = Date.now()
  const plan = roundPlan(options.load)
  /** @type {import('./pair-round.js').Mode | null} decided in the first round, kept for the others */
  let mode = null
  for (let i = 0; !io.signal?.aborted; i++) {
    const reason = stopReason(comparedRounds(sides), { started: i, elapsedMs: Date.now() - startedMs }, options)
    if (reason) return { sides, stopped: reason, mode }
    /** @type {PairRound} */
    const pair = new PairRound(roundOrder(i), plan, mode)
    /** @param {Side} side @returns {Promise<SideRun>} */
    const observeSide = async (side) => {
      /** @type {number[]} the app's processes, read once: a scan of /proc between loads would hold up the other's */
      let pids = []
      /** @type {number | null} */
      let cpuAtStart = null
      try {
        const run = await startSide(options, versions[side], join(folder, `${side}-${i + 1}`), io, {
          // Both apps run at once: each needs a port of its own.
          env: { ...io.env, PORT: '0' },
          nextLoad: async (round, agent, loads) => {
            if (round === 1) {
              pids = agent.pids()
              if (cpus.pinned && !pinProcesses(pids, /** @type {CpuPlan} */ (cpus.plan).apps)) cpus.pinned = false
            }
            if (round > 1) {
              const cpuNow = processesCpuMs(pids)
              const cpuMs = cpuNow !== null && cpuAtStart !== null ? cpuNow - cpuAtStart : null
              const last = /** @type {LoadResult} */ (loads.at(-1))
              pair.done(side, last, cpuMs)
              const counted = pair.counted[side].load
              if (counted && counted === last) io.onEvent?.({ type: 'compare-round', side, label: versions[side].label, round: i + 1, rounds: options.rounds, figures: roundFigures(counted, cpuMs) })
              // The requests a load left in flight are still being served: the next load's CPU time is its own.
              else await delay(Math.min(MAX_DRAIN_MS, last.latency.max))
            }
            const next = await pair.turn(side)
            cpuAtStart = processesCpuMs(pids)
            return next
          }
        })
        const { load, cpuMs } = pair.counted[side]
        return { run, round: i + 1, loads: load ? [load] : [], cpuMs, warmingUp: pair.lastStep[side] !== 'counted' }
      } finally {
        // This side can go no further: the other does not wait for it.
        pair.close()
      }
    }
    // The side that goes first starts its app first.
    const [first, second] = roundOrder(i)
    let runs
    try {
      runs = await settleBoth(observeSide(first), observeSide(second))
    } catch (err) {
      // Stopped while the pair started: the round did not run, and that is no failure.
      if (io.signal?.aborted) break
      // A version that could not start after rounds were done: those rounds are still compared.
      if (i === 0 || !(err instanceof DynoError)) throw err
      return { sides, stopped: null, mode, failure: err }
    }
    sides[first].push(runs[0])
    sides[second].push(runs[1])
    mode = pair.mode ?? mode
    if (sideFailure(sides.before[i], versions.before.label) || sideFailure(sides.after[i], versions.after.label) || silentRound(sides, i)) break
    progress(options, sides, i + 1, startedMs, io)
  }
  return { sides, stopped: null, mode }
}

/**
 * Each load on an app started for it, one app at a time.
 * @param {CompareLoadOptions} options @param {{ before: Version, after: Version }} versions
 * @param {string} folder @param {import('../../commands/io.js').CommandIO} io
 * @returns {Promise<Omit<RoundsRun, 'elapsedMs' | 'cpus'>>}
 */
async function freshRounds (options, versions, folder, io) {
  /** @type {Record<Side, SideRun[]>} */
  const sides = { before: [], after: [] }
  const startedMs = Date.now()
  for (let i = 0; !io.signal?.aborted; i++) {
    const reason = stopReason(comparedRounds(sides), { started: i, elapsedMs: Date.now() - startedMs }, options)
    if (reason) return { sides, stopped: reason, mode: null }
    for (const side of roundOrder(i)) {
      if (io.signal?.aborted) return { sides, stopped: null, mode: null }
      /** @type {number | null} */
      let cpuAtStart = null
      /** @type {number | null} */
      let cpuMs = null
      let run
      try {
        run = await startSide(options, versions[side], join(folder, `${side}-${i + 1}`), io, {
          env: io.env,
          loadRounds: 1,
          onRound: async (round, agent) => {
            const cpuNow = processesCpuMs(agent.pids())
            if (round === 0) cpuAtStart = cpuNow
            else cpuMs = cpuNow !== null && cpuAtStart !== null ? cpuNow - cpuAtStart : null
          }
        })
      } catch (err) {
        // Stopped while the app started: no failure.
        if (io.signal?.aborted) return { sides, stopped: null, mode: null }
        if (i === 0 || !(err instanceof DynoError)) throw err
        return { sides, stopped: null, mode: null, failure: err }
      }
      const load = run.observed.loads[0]
      if (load) io.onEvent?.({ type: 'compare-round', side, label: versions[side].label, round: i + 1, rounds: options.rounds, figures: roundFigures(load, cpuMs) })
      const start = { run, round: i + 1, loads: run.observed.loads, cpuMs, warmingUp: false }
      sides[side].push(start)
      if (sideFailure(start, versions[side].label)) return { sides, stopped: null, mode: null }
    }
    if (silentRound(sides, i)) return { sides, stopped: null, mode: null }
    progress(options, sides, i + 1, startedMs, io)
  }
  return { sides, stopped: null, mode: null }
}

/**
 * After each round: where the interval of requests per second stands, for the progress line.
 * @param {CompareLoadOptions} options @param {Record<Side, SideRun[]>} sides @param {number} started
 * @param {number} startedMs @param {import('../../commands/io.js').CommandIO} io
 */
function progress (options, sides, started, startedMs, io) {
  const rounds = comparedRounds(sides)
  const interval = requestsInterval(rounds, { sequential: options.rounds === null })
  io.onEvent?.({
    type: 'compare-progress',
    started,
    compared: rounds.length,
    rounds: options.rounds,
    elapsedMs: Date.now() - startedMs,
    maxTimeMs: options.maxTimeMs,
    precision: options.precision,
    requests: interval ? { ratio: Math.exp(interval.mean), low: Math.exp(interval.low), high: Math.exp(interval.high) } : null
  })
}

/**
 * The rounds both sides completed, with what each measured. A load cut
 * short (the app ended, Ctrl-C) is kept in rounds.json but not compared.
 * @param {Record<Side, SideRun[]>} sides
 * @returns {import('./load-rounds.js').Round[]}
 */
function comparedRounds (sides) {
  const completed = (/** @type {SideRun[]} */ runs) => new Map(runs.flatMap((s) => {
    // A round a side answered nothing in compares nothing (and has no CPU per request).
    const load = s.loads.find((l) => !l.interrupted && l.requests.completed > 0)
    return load ? [[s.round, roundFigures(load, s.cpuMs)]] : []
  }))
  const before = completed(sides.before)
  const after = completed(sides.after)
  return Array.from({ length: Math.max(sides.before.length, sides.after.length) }, (_, i) => i).flatMap((i) => {
    const b = before.get(i + 1)
    const a = after.get(i + 1)
    return b && a ? [{ order: roundOrder(i), before: b, after: a }] : []
  })
}

/**
 * One start of one side, observed as dyno flame observes an app.
 * @param {CompareLoadOptions} options @param {Version} version @param {string} folder
 * @param {import('../../commands/io.js').CommandIO} io
 * @param {{ env: NodeJS.ProcessEnv, loadRounds?: number, onRound?: import('../../observe/observe.js').ObserveHooks['onRound'], nextLoad?: import('../../observe/observe.js').ObserveHooks['nextLoad'] }} how
 */
async function startSide (options, version, folder, io, how) {
  mkdirSync(folder)
  const sideIO = {
    cwd: version.cwd,
    env: how.env,
    signal: io.signal,
    onEvent: (/** @type {import('../../commands/io.js').CommandEvent} */ event) => {
      if (event.type === 'warning') io.onEvent?.({ type: 'warning', message: `${version.label}: ${event.message}` })
    }
  }
  try {
    return await observeRun('compare', { command: version.command, load: options.load, onPort: null, listenTimeoutMs: options.listenTimeoutMs, stopGraceMs: options.stopGraceMs, out: options.out, outputToStderr: options.outputToStderr }, sideIO, {
      collectors: options.flame ? { cpu: { samplingIntervalUs: 1000 } } : {},
      busy: options.flame ? busySamples : () => 0,
      options: { side: version.label },
      loadRounds: how.loadRounds,
      onRound: how.onRound,
      nextLoad: how.nextLoad,
      folder
    })
  } catch (err) {
    throw labelled(err, version.label)
  }
}

/**
 * A DynoError about one version, its message led by the version's name.
 * @param {unknown} err @param {string} label
 */
function labelled (err, label) {
  return err instanceof DynoError ? labelledError(err, label) : err
}

/**
 * @param {CompareLoadOptions} options @param {{ before: Version, after: Version }} versions
 * @param {string} folder @param {RoundsRun} run @param {import('../../commands/io.js').CommandIO} io
 * @returns {{ result: CompareLoadResult, exitCode: number }}
 */
function finish (options, versions, folder, { sides, stopped, cpus, mode, failure: startFailure, elapsedMs }, io) {
  const rounds = comparedRounds(sides)
  // Every load that counted, round by round: the slices of a warm round, the one load of a fresh one.
  const loadsOf = (/** @type {SideRun[]} */ runs) => runs.map((s) => ({ round: s.round, cpuMs: s.cpuMs, loads: s.loads }))
  writeJson(folder, FILES.rounds, { before: loadsOf(sides.before), after: loadsOf(sides.after) })
  const { comparisons, totals } = compareLoadRounds(rounds, { sequential: options.rounds === null })
  const interrupted = io.signal?.aborted ? String(io.signal.reason ?? 'SIGINT') : null
  const failure = startFailure ?? (['before', 'after']).map((side) => sides[/** @type {Side} */ (side)].map((s) => sideFailure(s, versions[/** @type {Side} */ (side)].label)).find(Boolean)).find(Boolean) ??
    silentFailure(sides, versions) ?? (comparisons.length === 0 && rounds.length > 0 && !interrupted ? nothingCompared(totals) : null)
  const requests = comparisons.find((c) => c.name === 'requests')
  const gate = options.failIfSlower !== null && requests ? slowerGate([requests], options.failIfSlower) : null
  const describe = (/** @type {Version} */ v) => ({ label: v.label, command: v.command, commit: v.commit })
  /** @type {CompareLoadResult} */
  const result = {
    schemaVersion: COMPARISON_SCHEMA_VERSION,
    kind: 'load',
    folder,
    versions: { before: describe(versions.before), after: describe(versions.after) },
    settings: { url: displayUrl(options.load.url), rounds: options.rounds, precision: options.precision, maxTimeMs: options.maxTimeMs, failIfSlower: options.failIfSlower, fresh: options.fresh, mode, cpus: cpus && { apps: cpus.apps, load: cpus.generator } },
    comparisons,
    totals,
    rounds,
    stopped,
    elapsedMs,
    gate,
    flame: options.flame ? flameDiff(folder, sides, versions) : null,
    interrupted,
    failure
  }
  writeJson(folder, FILES.result, compareLoadJson(result))
  const exitCode = failure ? failure.exitCode : interrupted ? signalExitCode(interrupted) : gate?.failed ? exitCodeOf('DYNO_SLOWER') : 0
  return { result, exitCode }
}

/**
 * Rounds in a row in which a side must answer nothing for the run to end:
 * one silent round can be a cold app on a busy machine, three are an app
 * that hangs or a URL that is wrong for it.
 */
const SILENT_ROUNDS = 3

/**
 * Whether a side has answered nothing for SILENT_ROUNDS rounds in a row, up to round `index`.
 * @param {Record<Side, SideRun[]>} sides @param {number} index
 */
function silentRound (sides, index) {
  return [sides.before, sides.after].some((runs) => silentSince(runs.slice(0, index + 1)).length >= SILENT_ROUNDS)
}

/**
 * The side's last rounds, each of which answered nothing.
 * @param {SideRun[]} runs
 */
function silentSince (runs) {
  let first = runs.length
  while (first > 0 && answeredNothing(runs[first - 1])) first--
  return runs.slice(first)
}

/** @param {SideRun} side its load ran to its end and had no answer */
function answeredNothing (side) {
  return side.loads.some((l) => !l.interrupted && l.requests.completed === 0)
}

/**
 * A side that answered nothing in its last SILENT_ROUNDS rounds or more, as
 * a failure named by the first of them.
 * @param {Record<Side, SideRun[]>} sides @param {{ before: Version, after: Version }} versions
 */
function silentFailure (sides, versions) {
  for (const side of /** @type {Side[]} */ (['before', 'after'])) {
    const silent = silentSince(sides[side])
    if (silent.length >= SILENT_ROUNDS) return dynoError('DYNO_APP_SILENT', { version: versions[side].label, round: silent[0].round })
  }
  return null
}

/**
 * Rounds ran, and in none did both sides answer: a failed target, not a tie.
 * @param {{ before: import('./load-rounds.js').SideTotals, after: import('./load-rounds.js').SideTotals }} totals
 */
function nothingCompared (totals) {
  const silent = (/** @type {const} */ (['before', 'after'])).filter((side) => totals[side].completed === 0)
  return silent.length > 0 ? dynoError('DYNO_NOTHING_COMPARED.silent', { versions: silent.join(' and ') }) : dynoError('DYNO_NOTHING_COMPARED.neverBoth')
}

/**
 * Why a side's start went wrong, in one line: the app never listened, the
 * load failed, or the app ended before its loads were done.
 * @param {SideRun} side @param {string} label
 * @returns {DynoError | null}
 */
function sideFailure ({ run, round, loads, warmingUp }, label) {
  // A load the app answered nothing of is judged with the rounds around it (silentRound): it may have been slow to start.
  if (run.failure && !answeredNoLoad(run)) return /** @type {DynoError} */ (labelled(run.failure, `${label} (round ${round})`))
  const done = loads.filter((l) => !l.interrupted).length
  if (run.observed.interrupted === null && !run.end.stoppedByDyno && done === 0) {
    const during = run.observed.loads.some((l) => l.interrupted)
    const values = { version: label, how: run.end.how, round }
    if (during) return dynoError(warmingUp ? 'DYNO_APP_ENDED.duringWarmUp' : 'DYNO_APP_ENDED.during', values)
    return dynoError(warmingUp ? 'DYNO_APP_ENDED.betweenWarmUp' : 'DYNO_APP_ENDED.between', values)
  }
  return null
}

/**
 * The run failed only in that its last load had no answer: the app still
 * accepted connections, and nothing else went wrong.
 * @param {import('../../commands/observed-run.js').ObservedRun} run
 */
function answeredNoLoad (run) {
  const load = run.observed.load
  return run.observed.failure === null && load !== null && load.requests.completed === 0 && !load.targetRefusing && load.failure === null
}

/**
 * With --flame: the CPU differential, per request, written beside the
 * rounds (flame-diff.html, flame-diff.json); null when a side has no profile
 * or answered nothing.
 * @param {string} folder @param {Record<Side, SideRun[]>} sides @param {{ before: Version, after: Version }} versions
 */
function flameDiff (folder, sides, versions) {
  const before = cpuSide(sides.before, versions.before)
  const after = cpuSide(sides.after, versions.after)
  if (!before || !after) return null
  const { diff, html } = writeFlameDiff(folder, { before, after }, { title: `${versions.before.label} → ${versions.after.label}` })
  return { diff, html }
}

/**
 * The profile of a side's observed process and the requests it answered
 * while profiled (every load, the warm-up too). Fresh rounds start a process
 * per load, whose profiles do not merge (script ids are per process): the
 * last start stands for the side.
 * @param {SideRun[]} runs @param {Version} version
 * @returns {CpuSide | null}
 */
function cpuSide (runs, version) {
  const last = runs.at(-1)
  if (!last) return null
  const profile = mergedProfile(last.run.chosen)
  const requests = last.run.observed.loads.reduce((s, l) => s + l.requests.completed, 0)
  return profile.nodes.length > 0 && requests > 0 ? { profile, requests, cwd: version.cwd } : null
}

/**
 * Waits for both sides, whichever fails first: a side that throws ends the
 * other (its turns close), and the first error is thrown once both are done.
 * @template T
 * @param {Promise<T>} a @param {Promise<T>} b
 * @returns {Promise<[T, T]>}
 */
async function settleBoth (a, b) {
  const [ra, rb] = await Promise.allSettled([a, b])
  if (ra.status === 'rejected') throw ra.reason
  if (rb.status === 'rejected') throw rb.reason
  return [ra.value, rb.value]
}
