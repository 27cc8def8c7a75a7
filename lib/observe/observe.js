import { load } from '../load/run.js'
import { App } from './app.js'
import { AttachedApp } from './attached-app.js'
import { loadFor, loadSocket, loadUrlWarning } from './load-url.js'
import { runOnPort } from './on-port.js'
import { readProcesses } from './processes.js'

/**
 * @typedef {object} ObserveOptions
 * @property {string[]} command the user's command, which runs node (empty with `pid`)
 * @property {number | null} [pid] a process that already runs, to join instead of starting a command
 * @property {boolean} [useOpenInspector] with `pid`: an inspector the process already has open may be used
 * @property {number | null} [durationMs] without a load: how long to observe (until the app exits, else)
 * @property {string} cwd
 * @property {NodeJS.ProcessEnv} env
 * @property {string} folder the run folder (created by the caller)
 * @property {Record<string, object>} collectors what each agent collector is asked, by name
 * @property {import('../load/options.js').LoadOptions | null} load its url may hold `$PORT`
 * @property {string | null} onPort a shell command to run once the app listens, with PORT set
 * @property {number} listenTimeoutMs
 * @property {number} [stopGraceMs] how long the app may take to end after SIGTERM (5 s)
 * @property {number} [agentStopMs] how long the agents may take to write their last data once told to stop (10 s)
 * @property {AbortSignal} [signal] ends the run early; its reason names the signal ('SIGINT', …)
 * @property {AbortSignal} [urgent] ends the wait for the app to end after SIGTERM: it is killed at once
 * @property {boolean} [outputToStderr] the app's output goes to dyno's stderr, so that dyno's stdout holds only its own (--json)
 * @property {number} [loadRounds] how many times the load (or the --on-port command) runs, one after the other (1);
 *   hooks.onRound runs before the first round and after each
 *
 * @typedef {object} ObserveHooks
 * @property {(options: import('../load/options.js').LoadOptions) => void} [onLoadStart]
 * @property {(progress: import('../load/options.js').LoadProgress) => void} [onLoadProgress]
 * @property {() => void} [onLoadEnd]
 * @property {(message: { collector: string, pid: number, [key: string]: unknown }) => void} [onAgentData] a collector's live data
 * @property {(warning: string) => void} [onWarning]
 * @property {(notice: string) => void} [onNotice] what dyno did to the app that the user should know (opened its inspector)
 * @property {(round: number, agent: AgentControl, loads: readonly import('../load/summary.js').LoadResult[]) => Promise<void>} [onRound]
 *   before round 1 (round 0) and after each round, while the app waits: e.g. to have the agent take a heap
 *   snapshot; `loads` holds the rounds' results so far
 * @property {(round: number, agent: AgentControl, loads: readonly import('../load/summary.js').LoadResult[]) => Promise<import('../load/options.js').LoadOptions | null>} [nextLoad]
 *   for a run whose rounds are decided as it goes (instead of loadRounds and onRound): before each round, from 1,
 *   the load it runs (its url may hold `$PORT`), or null when there is none left; it may wait, e.g. for another
 *   app's turn
 * @property {(agent: AgentControl) => Promise<void>} [onJoined] with --pid and no load: once dyno's own inspector
 *   session is gone, before the wait (a heap snapshot taken earlier would not match a later one: V8 renumbers the
 *   heap's objects whenever an inspector session ends)
 *
 * @typedef {object} AgentControl the agent of the process the load goes to
 * @property {number} pid
 * @property {() => number[]} pids every live process of the app
 * @property {(collector: string, command: object, timeoutMs: number) => Promise<{ [key: string]: unknown }>} ask
 *   sends one of its collectors a command and resolves with the reply
 *
 * @typedef {object} Observed
 * @property {import('./processes.js').ProcessRecord[]} processes what every process of the app wrote
 * @property {import('./app.js').AgentListening | null} listening where the load went: the unix socket a socket load waited for, else
 *   the first TCP port the app listened on
 * @property {import('../load/summary.js').LoadResult | null} load the last round's
 * @property {import('../load/summary.js').LoadResult[]} loads every round's, in order
 * @property {{ startMs: number, endMs: number } | null} loadWindow epoch ms, the agents' clock: from the start of the first
 *   round to the end of the last, without what hooks.onRound did before and after them
 * @property {({ atMs: number } & import('../load/options.js').LoadProgress)[]} loadTimeline the load's progress, once a second
 * @property {import('./on-port.js').OnPortEnd | null} onPort
 * @property {import('./app.js').ProcessExit} exit how the first process of the command ended
 * @property {boolean} stoppedByDyno
 * @property {boolean} killed it did not end on SIGTERM (within the grace, or before a second Ctrl-C) and was killed
 * @property {string | null} interrupted the signal that ended the run early, if one did
 * @property {unknown} failure what went wrong on dyno's side of the run (the app never listened, the load failed)
 * @property {{ pid: number, inspector: string, openedByDyno: boolean, openMs: number } | null} attached how dyno joined a process that ran already
 */

/**
 * The one way dyno observes an app: start the command with the agent and the
 * given collectors inside every Node.js process, wait for it to listen, run
 * the load or the --on-port command (or nothing: until the app exits or the
 * run is stopped), then stop the collectors and every process of the app, and
 * read what the agents wrote. A failing app still gives what was collected.
 * @param {ObserveOptions} options
 * @param {ObserveHooks} [hooks]
 * @returns {Promise<Observed>}
 */
export async function observe (options, hooks = {}) {
  const app = options.pid
    ? new AttachedApp({ pid: options.pid, useOpenInspector: options.useOpenInspector ?? false, runDir: options.folder, collectors: options.collectors, onNotice: hooks.onNotice, onWarning: hooks.onWarning })
    : new App({ command: options.command, cwd: options.cwd, env: options.env, runDir: options.folder, collectors: options.collectors, outputToStderr: options.outputToStderr })
  const stop = new AbortController()
  const onAbort = () => stop.abort(options.signal?.reason)
  options.signal?.addEventListener('abort', onAbort, { once: true })
  if (options.signal?.aborted) onAbort()
  if (hooks.onAgentData) app.channel.on('data', hooks.onAgentData)
  await app.start()

  /** @type {Observed['loads']} */
  const loads = []
  /** @type {Observed['loadWindow']} */
  let loadWindow = null
  /** @type {Observed['loadTimeline']} */
  const loadTimeline = []
  /** @type {Observed['onPort']} */
  let onPort = null
  /** @type {unknown} */
  let failure = null
  /** Where the load went: the app's first TCP port, or the unix socket a socket load waited for. @type {import('./app.js').AgentListening | null} */
  let loaded = null
  try {
    if (options.load || options.onPort) {
      const kind = options.load && loadSocket(options.load) !== null ? 'unix' : 'tcp'
      const listening = await untilAborted(app.waitForListening(options.listenTimeoutMs, kind), stop.signal)
      loaded = listening
      // The load stops when the user stops, or when the process it loads goes away.
      const driverStop = new AbortController()
      stop.signal.addEventListener('abort', () => driverStop.abort(), { once: true })
      app.disconnected(listening.pid).then(() => driverStop.abort())
      const agent = agentControl(app, listening.pid)
      const rounds = options.loadRounds ?? 1
      const { nextLoad } = hooks
      // The window is the load's: what the hooks do before the first round and after the last is not in it.
      let startMs = Date.now()
      const lastRound = nextLoad ? Infinity : rounds
      for (let round = 1; round <= lastRound && !driverStop.signal.aborted; round++) {
        let roundLoad = options.load
        if (nextLoad) {
          roundLoad = await untilAborted(nextLoad(round, agent, loads), stop.signal)
          if (!roundLoad) break
        } else if (hooks.onRound) {
          await untilAborted(hooks.onRound(round - 1, agent, loads), stop.signal)
        }
        if (round === 1) startMs = Date.now()
        if (roundLoad) loads.push(await runLoad(roundLoad, listening, driverStop.signal, loadTimeline, hooks))
        else onPort = await runOnPort(/** @type {string} */ (options.onPort), /** @type {number} */ (listening.port), options, driverStop.signal)
        loadWindow = { startMs, endMs: Date.now() }
        if (onPort?.failed) break
      }
      if (!nextLoad && hooks.onRound && !driverStop.signal.aborted && !onPort?.failed) await untilAborted(hooks.onRound(rounds, agent, loads), stop.signal)
    } else {
      if (hooks.onJoined && app instanceof AttachedApp) await untilAborted(hooks.onJoined(agentControl(app, app.pid)), stop.signal)
      const exited = /** @type {Promise<unknown>} */ (app.exited)
      const durationMs = options.durationMs
      const duration = durationMs ? new Promise((resolve) => setTimeout(resolve, durationMs).unref()) : null
      await untilAborted(duration ? Promise.race([exited, duration]) : exited, stop.signal)
    }
  } catch (err) {
    if (!(err instanceof Aborted)) failure = err
  } finally {
    // However the run went, the app does not outlive it.
    await app.stop({ agentTimeoutMs: options.agentStopMs, exitTimeoutMs: options.stopGraceMs, urgent: options.urgent, onWaiting: hooks.onWarning })
    options.signal?.removeEventListener('abort', onAbort)
  }
  return {
    processes: readProcesses(options.folder),
    listening: loaded ?? app.listening,
    load: loads.at(-1) ?? null,
    loads,
    loadWindow,
    loadTimeline,
    onPort,
    exit: /** @type {import('./app.js').ProcessExit} */ (app.exit),
    stoppedByDyno: app.stoppedByDyno,
    killed: app.killed,
    interrupted: stop.signal.aborted ? (typeof stop.signal.reason === 'string' ? stop.signal.reason : 'SIGINT') : null,
    failure,
    attached: app instanceof AttachedApp && app.attached ? { pid: app.pid, ...app.attached } : null
  }
}

/**
 * @param {App} app
 * @param {number} pid the process whose agent is asked
 * @returns {AgentControl}
 */
function agentControl (app, pid) {
  return {
    pid,
    pids: () => app.alive(),
    ask: (collector, command, timeoutMs) => app.channel.ask(pid, collector, command, timeoutMs)
  }
}

/**
 * One round of load at the app.
 * @param {import('../load/options.js').LoadOptions} options its url may hold `$PORT`
 * @param {import('./app.js').AgentListening} listening
 * @param {AbortSignal} signal
 * @param {Observed['loadTimeline']} timeline
 * @param {ObserveHooks} hooks
 */
async function runLoad (options, listening, signal, timeline, hooks) {
  const warning = loadUrlWarning(options, listening)
  if (warning) hooks.onWarning?.(warning)
  const loadOptions = loadFor(options, listening)
  hooks.onLoadStart?.(loadOptions)
  try {
    return await load({
      ...loadOptions,
      signal,
      onProgress: (progress) => {
        timeline.push({ atMs: Date.now(), ...progress })
        hooks.onLoadProgress?.(progress)
      }
    })
  } finally {
    hooks.onLoadEnd?.()
  }
}

class Aborted extends Error {}

/**
 * @template T
 * @param {Promise<T>} promise
 * @param {AbortSignal} signal
 * @returns {Promise<T>}
 */
function untilAborted (promise, signal) {
  if (signal.aborted) return Promise.reject(new Aborted())
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Aborted())
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
