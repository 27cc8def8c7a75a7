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
 * @param {{ stoppedByDyno: boolean, killed?: boolean, interrupted: string | null, driver: 'load' | 'on-port' | null, driverFailed: boolean, durationMs?: number | null, attached?: boolean }} context
 *   attached: a process dyno joined (--pid)
 * @returns {AppEnd}
 */
export function describeAppEnd (chosen, exit, context) {
  const end = chosen.end
  // A process dyno joined (--pid) goes on: dyno took its agent out again.
  if (end?.how === 'detached') {
    const when = context.interrupted || context.driver || !context.durationMs ? endedBy(context, 'at the end').replace(/^by dyno /, '') : `after ${context.durationMs / 1000} s`
    return { how: `kept running: dyno took its agent out ${when}`, code: null, signal: null, clean: true, stoppedByDyno: true }
  }
  // Joined, and still at work when dyno stopped waiting for its agent: its loop is held.
  if (context.attached && end === null && context.stoppedByDyno) {
    return { how: 'kept running with its event loop held, so dyno\'s agent could not finish: it leaves once the loop turns (the data holds what was written before)', code: null, signal: null, clean: true, stoppedByDyno: true }
  }
  // Its agent may have written its end before the SIGTERM it then ignored: killed is not clean.
  if (context.killed) {
    return { how: 'was killed by dyno (SIGKILL): it did not end after SIGTERM (see --stop-grace)', code: exit.code, signal: exit.signal, clean: false, stoppedByDyno: true }
  }
  if (end?.how === 'stopped' || (context.stoppedByDyno && end === null)) {
    return { how: `stopped ${endedBy(context, 'by dyno')}`, code: null, signal: null, clean: true, stoppedByDyno: true }
  }
  if (end?.uncaught) {
    return { how: `crashed: uncaught ${end.uncaught.name}: ${end.uncaught.message} (exit code ${end.code})`, code: end.code, signal: null, clean: false, stoppedByDyno: false }
  }
  if (end?.how === 'exit') {
    return { how: `exited on its own with code ${end.code}`, code: end.code, signal: null, clean: end.code === 0, stoppedByDyno: false }
  }
  if (exit.code === null && exit.signal === null) {
    return { how: 'ended while dyno observed it, without running its exit handlers (the data holds what was written before)', code: null, signal: null, clean: false, stoppedByDyno: false }
  }
  // No end record: the process died without running its exit handlers.
  return { how: `${describeExit(exit)} (the data holds what was written before)`, code: exit.code, signal: exit.signal, clean: false, stoppedByDyno: false }
}

/**
 * What ended the observing: the user, a failed driver, the driver's end, or dyno.
 * @param {{ interrupted: string | null, driver: 'load' | 'on-port' | null, driverFailed: boolean }} context
 * @param {string} otherwise
 */
function endedBy (context, otherwise) {
  if (context.interrupted) return INTERRUPTS[context.interrupted] ?? `by ${context.interrupted} to dyno`
  if (context.driverFailed) return `by dyno (the ${context.driver === 'load' ? 'load' : '--on-port command'} failed)`
  if (context.driver === 'load') return 'by dyno after the load'
  if (context.driver === 'on-port') return 'by dyno after the --on-port command'
  return otherwise
}
