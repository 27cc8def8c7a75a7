/**
 * Where a command writes, and the process facts it may read. Tests pass
 * their own; the CLI passes the real process.
 * @typedef {object} IO
 * @property {NodeJS.WriteStream} stdout
 * @property {NodeJS.WriteStream} stderr
 * @property {string} cwd
 * @property {NodeJS.ProcessEnv} env
 * @property {(listener: (signal: string) => void) => () => void} onInterrupt runs `listener` on Ctrl-C (or SIGTERM, SIGHUP) with the signal's name; returns the way to stop listening
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
      /** @type {Map<string, () => void>} */
      const handlers = new Map(STOP_SIGNALS.map((signal) => [signal, () => listener(signal)]))
      for (const [signal, handler] of handlers) process.on(signal, handler)
      return () => { for (const [signal, handler] of handlers) process.off(signal, handler) }
    }
  }
}

/**
 * An AbortSignal that Ctrl-C (and its kin) abort, with the signal's name as
 * the reason, for the run of one command; and `urgent`, which a second one
 * aborts: stop waiting for the app to end, kill it.
 * @param {IO} io
 * @returns {{ signal: AbortSignal, urgent: AbortSignal, dispose: () => void }}
 */
export function interruptSignal (io) {
  const controller = new AbortController()
  const urgent = new AbortController()
  const dispose = io.onInterrupt((signal) => {
    if (controller.signal.aborted) urgent.abort(signal)
    else controller.abort(signal)
  })
  return { signal: controller.signal, urgent: urgent.signal, dispose }
}
