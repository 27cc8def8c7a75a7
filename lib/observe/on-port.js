import { spawn } from 'node:child_process'
import { dynoError } from '../errors.js'

/**
 * @typedef {object} OnPortEnd
 * @property {string} command
 * @property {number | null} code
 * @property {NodeJS.Signals | null} signal
 * @property {boolean} stoppedByDyno dyno ended it (Ctrl-C, or the app went away)
 * @property {boolean} failed it ended on its own, with an error
 */

/**
 * Runs the `--on-port` shell command with PORT set, in a process group of its
 * own, so that stopping it stops what it started too (a load tool under sh).
 * Resolves when it ends; `signal` stops it.
 * @param {string} command
 * @param {number} port
 * @param {{ cwd: string, env: NodeJS.ProcessEnv }} where
 * @param {AbortSignal} signal
 * @returns {Promise<OnPortEnd>}
 */
export function runOnPort (command, port, where, signal) {
  const child = spawn('sh', ['-c', command], { cwd: where.cwd, env: { ...where.env, PORT: String(port) }, stdio: ['ignore', 'inherit', 'inherit'], detached: true })
  let stoppedByDyno = false
  const stop = () => {
    stoppedByDyno = true
    signalGroup(child.pid, 'SIGTERM')
    // A command that ignores SIGTERM gets SIGKILL after a while.
    setTimeout(() => signalGroup(child.pid, 'SIGKILL'), 2000).unref()
  }
  const killOnExit = () => signalGroup(child.pid, 'SIGTERM')
  process.on('exit', killOnExit)
  if (signal.aborted) stop()
  else signal.addEventListener('abort', stop, { once: true })
  return new Promise((resolve) => {
    child.once('error', () => {})
    child.once('exit', (code, exitSignal) => {
      signal.removeEventListener('abort', stop)
      process.off('exit', killOnExit)
      // Whatever the shell started goes with it.
      signalGroup(child.pid, 'SIGTERM')
      resolve({ command, code, signal: exitSignal, stoppedByDyno, failed: !stoppedByDyno && code !== 0 })
    })
  })
}

/** @param {number | undefined} pid @param {NodeJS.Signals} signal */
function signalGroup (pid, signal) {
  if (pid === undefined) return
  try {
    process.kill(-pid, signal)
  } catch {}
}

/**
 * Why the --on-port command failed, as the error the run ends with.
 * @param {OnPortEnd} end
 */
export function onPortError (end) {
  if (end.code === 127) return dynoError('DYNO_ON_PORT_NOT_FOUND', { command: end.command })
  if (end.signal) return dynoError('DYNO_ON_PORT_FAILED.killed', { signal: end.signal, command: end.command })
  return dynoError('DYNO_ON_PORT_FAILED.exited', { code: String(end.code), command: end.command })
}
