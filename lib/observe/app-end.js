import { describeExit } from './app.js'

/**
 * How an observed app ended, in words for the reports, with what dyno makes
 * of it.
 * @typedef {object} AppEnd
 * @property {string} how e.g. "stopped by dyno after the load", "crashed: uncaught TypeError: … (exit code 1)"
 * @property {number | null} code
 * @property {NodeJS.Signals | null} signal
 * @property {boolean} clean ended as it should: stopped by dyno, or exited with 0
 * @property {boolean} stoppedByDyno
 */

/** What Ctrl-C and its kin are called in the reports. */
const INTERRUPTS = /** @type {Record<string, string>} */ ({ SIGINT: 'with Ctrl-C', SIGTERM: 'by SIGTERM to dyno', SIGHUP: 'by SIGHUP to dyno' })

/**
 * @param {import('./processes.js').ProcessRecord} chosen the process observed
 * @param {import('./app.js').ProcessExit} exit how the first process of the command ended
 * @param {{ stoppedByDyno: boolean, killed?: boolean, interrupted: string | null, driver: 'load' | 'on-port' | null, driverFailed: boolean }} context
 * @returns {AppEnd}
 */
export function describeAppEnd (chosen, exit, context) {
  const end = chosen.end
  // Its agent may have written its end before the SIGTERM it then ignored: killed is not clean.
  if (context.killed) {
    return { how: 'was killed by dyno (SIGKILL): it did not end after SIGTERM (see --stop-grace)', code: exit.code, signal: exit.signal, clean: false, stoppedByDyno: true }
  }
  if (end?.how === 'stopped' || (context.stoppedByDyno && end === null)) {
    const after = context.interrupted
      ? INTERRUPTS[context.interrupted] ?? `by ${context.interrupted} to dyno`
      : context.driverFailed
        ? `by dyno (the ${context.driver === 'load' ? 'load' : '--on-port command'} failed)`
        : context.driver === 'load' ? 'by dyno after the load' : context.driver === 'on-port' ? 'by dyno after the --on-port command' : 'by dyno'
    return { how: `stopped ${after}`, code: null, signal: null, clean: true, stoppedByDyno: true }
  }
  if (end?.uncaught) {
    return { how: `crashed: uncaught ${end.uncaught.name}: ${end.uncaught.message} (exit code ${end.code})`, code: end.code, signal: null, clean: false, stoppedByDyno: false }
  }
  if (end?.how === 'exit') {
    return { how: `exited on its own with code ${end.code}`, code: end.code, signal: null, clean: end.code === 0, stoppedByDyno: false }
  }
  // No end record: the process died without running its exit handlers.
  return { how: `${describeExit(exit)} (the data holds what was written before)`, code: exit.code, signal: exit.signal, clean: false, stoppedByDyno: false }
}
