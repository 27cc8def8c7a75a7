/**
 * Where a command writes, and the process facts it may read. Tests pass
 * their own; the CLI passes the real process.
 * @typedef {object} IO
 * @property {NodeJS.WriteStream} stdout
 * @property {NodeJS.WriteStream} stderr
 * @property {string} cwd
 * @property {NodeJS.ProcessEnv} env
 * @property {(listener: () => void) => () => void} onInterrupt runs `listener` on Ctrl-C; returns the way to stop listening
 */

const STOP_SIGNALS = /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])

/** @returns {IO} */
export function processIO () {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    env: process.env,
    onInterrupt (listener) {
      // Asked to stop by a terminal, a supervisor or a closed session: end
      // the run and keep what was measured.
      for (const signal of STOP_SIGNALS) process.on(signal, listener)
      return () => { for (const signal of STOP_SIGNALS) process.off(signal, listener) }
    }
  }
}
