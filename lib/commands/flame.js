import { spawn } from 'node:child_process'
import { copyFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { load } from '../load/run.js'
import { createRunFolder, writeJson } from '../run-folder.js'
import { busySamples, chooseProcess, mergedProfile, readProcesses } from '../target/collect.js'
import { targetError } from '../errors.js'
import { Target, describeExit, notNode } from '../target/target.js'
import { FILES, renderFlameFolder } from './flame-report.js'

/** @typedef {import('../target/collect.js').ProcessRecord} ProcessRecord */

/**
 * @typedef {object} FlameOptions
 * @property {string[]} command
 * @property {import('../load/options.js').LoadOptions | null} load its url may hold `$PORT`
 * @property {string | null} onPort a shell command to run once the app listens, with PORT set
 * @property {number} samplingIntervalUs
 * @property {number} listenTimeoutMs
 * @property {number} [stopGraceMs] how long the app may take to end after SIGTERM (5 s)
 * @property {string} out the folder runs go in
 * @property {AbortSignal} [signal] stops the load and the profiling early (Ctrl-C)
 */

/**
 * @typedef {object} FlameHooks
 * @property {(options: import('../load/options.js').LoadOptions) => void} [onLoadStart]
 * @property {(progress: import('../load/options.js').LoadProgress) => void} [onLoadProgress]
 * @property {() => void} [onLoadEnd]
 */

/**
 * Runs the app with the agent inside, drives the load (or the --on-port
 * command, or nothing) at it, stops profiling and the app, and writes the
 * run folder. A failing app still gets its report from what was collected.
 * @param {FlameOptions} options
 * @param {{ cwd: string, env: NodeJS.ProcessEnv }} where
 * @param {FlameHooks} [hooks]
 */
export async function runFlame (options, where, hooks = {}) {
  const folder = createRunFolder(options.out, 'flame')
  const startedAt = new Date().toISOString()
  const target = new Target({ command: options.command, cwd: where.cwd, env: where.env, runDir: folder, samplingIntervalUs: options.samplingIntervalUs })
  const stop = new AbortController()
  options.signal?.addEventListener('abort', () => stop.abort(), { once: true })
  if (options.signal?.aborted) stop.abort()
  try {
    await target.start()
  } catch (err) {
    rmSync(folder, { recursive: true, force: true })
    throw err
  }

  /** @type {import('../load/summary.js').LoadResult | null} */
  let loadResult = null
  /** @type {number | null} */
  let onPortCode = null
  /** @type {unknown} */
  let failure = null
  try {
    if (options.load || options.onPort) {
      const { port, pid } = await untilAborted(target.waitForListening(options.listenTimeoutMs), stop.signal)
      // The load stops when the user stops, or when the process it loads goes away.
      const loadStop = new AbortController()
      stop.signal.addEventListener('abort', () => loadStop.abort(), { once: true })
      target.disconnected(pid).then(() => loadStop.abort())
      if (options.load) {
        const loadOptions = { ...options.load, url: withPort(options.load.url, port) }
        hooks.onLoadStart?.(loadOptions)
        try {
          loadResult = await load({ ...loadOptions, signal: loadStop.signal, onProgress: hooks.onLoadProgress })
        } finally {
          hooks.onLoadEnd?.()
        }
      } else {
        onPortCode = await runOnPort(/** @type {string} */ (options.onPort), port, where, loadStop.signal)
      }
    } else {
      await untilAborted(/** @type {Promise<unknown>} */ (target.exited), stop.signal)
    }
  } catch (err) {
    if (!(err instanceof Aborted)) failure = err
  } finally {
    // However the run went, the app does not outlive it.
    await target.stop({ exitTimeoutMs: options.stopGraceMs })
  }
  const exit = /** @type {import('../target/target.js').TargetExit} */ (target.exit)

  const processes = readProcesses(folder)
  const chosen = chooseProcess(processes, busySamples, target.listening?.pid ?? null)
  if (!chosen) {
    rmSync(folder, { recursive: true, force: true })
    if (failure) throw failure
    throw notNode(options.command)
  }
  const profile = mergedProfile(chosen)
  const how = describeEnd(chosen, exit, { stoppedByDyno: target.stoppedByDyno, interrupted: stop.signal.aborted, load: options.load !== null, onPort: options.onPort !== null, loadFailed: failure !== null })
  writeJson(folder, FILES.meta, {
    schemaVersion: 1,
    command: 'flame',
    title: options.command.join(' '),
    target: { command: options.command, cwd: where.cwd },
    cwd: chosen.info?.cwd ?? where.cwd,
    node: chosen.info?.node ?? null,
    v8: chosen.info?.v8 ?? null,
    startedAt,
    finishedAt: new Date().toISOString(),
    options: { samplingIntervalUs: options.samplingIntervalUs, load: options.load ? options.load.url : null, onPort: options.onPort },
    process: { pid: chosen.pid, argv: chosen.info?.argv ?? null, listening: chosen.listening },
    exit: how,
    load: loadResult,
    onPort: options.onPort ? { command: options.onPort, code: onPortCode } : null
  })
  const base = { folder, load: loadResult, onPortCode, exit: how }
  if (profile.nodes.length === 0) {
    // Killed before its first chunk: the run folder keeps what there is.
    return { ...base, rendered: null, failure: failure ?? targetError('DYNO_NO_PROFILE', `the app ${how.how} before it wrote any profile`), exitCode: 1 }
  }
  writeFileSync(join(folder, FILES.profile), JSON.stringify(profile))
  if (chosen.functions) copyFileSync(chosen.functions, join(folder, FILES.functions))
  if (chosen.tiers) copyFileSync(chosen.tiers, join(folder, FILES.tiers))
  const rendered = renderFlameFolder(folder, profile)
  // A failed target: the app never listened, ended while it was being
  // loaded, or (profiled to its end) crashed or exited with an error.
  const loaded = options.load !== null || options.onPort !== null
  const appFailed = failure !== null || (loaded ? !how.stoppedByDyno : !how.clean)
  return { ...base, rendered, failure, exitCode: appFailed ? 1 : 0 }
}

/**
 * The load's URL with `$PORT` (or `${PORT}`) replaced.
 * @param {string} url @param {number} port
 */
export function withPort (url, port) {
  return url.replace(/\$\{?PORT\}?/g, String(port))
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

/**
 * @param {string} command
 * @param {number} port
 * @param {{ cwd: string, env: NodeJS.ProcessEnv }} where
 * @param {AbortSignal} signal
 * @returns {Promise<number | null>} its exit code
 */
function runOnPort (command, port, where, signal) {
  const child = spawn('sh', ['-c', command], { cwd: where.cwd, env: { ...where.env, PORT: String(port) }, stdio: ['ignore', 'inherit', 'inherit'] })
  const kill = () => child.kill('SIGTERM')
  signal.addEventListener('abort', kill, { once: true })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => {
      signal.removeEventListener('abort', kill)
      resolve(code)
    })
  })
}

/**
 * How the app ended, in words for the report.
 * @param {ProcessRecord} chosen
 * @param {import('../target/target.js').TargetExit} exit the first process of the command
 * @param {{ stoppedByDyno: boolean, interrupted: boolean, load: boolean, onPort: boolean, loadFailed: boolean }} context
 */
function describeEnd (chosen, exit, context) {
  const end = chosen.end
  if (end?.how === 'stopped' || (context.stoppedByDyno && end === null)) {
    const after = context.interrupted
      ? 'with Ctrl-C'
      : context.loadFailed ? 'by dyno (the load failed)' : context.load ? 'by dyno after the load' : context.onPort ? 'by dyno after the --on-port command' : 'by dyno'
    return { how: `stopped ${after}`, code: null, signal: null, clean: true, stoppedByDyno: true }
  }
  if (end?.uncaught) {
    return { how: `crashed: uncaught ${end.uncaught.name}: ${end.uncaught.message} (exit code ${end.code})`, code: end.code, signal: null, clean: false, stoppedByDyno: false }
  }
  if (end?.how === 'exit') {
    return { how: `exited on its own with code ${end.code}`, code: end.code, signal: null, clean: end.code === 0, stoppedByDyno: false }
  }
  // No end record: the process died without running its exit handlers.
  return { how: `${describeExit(exit)} (the profile holds what was written before)`, code: exit.code, signal: exit.signal, clean: false, stoppedByDyno: false }
}
