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

/** @returns {IO} */
export function processIO () {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    env: process.env,
    onInterrupt (listener) {
      process.on('SIGINT', listener)
      return () => process.off('SIGINT', listener)
    }
  }
}
