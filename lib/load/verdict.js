import { dynoError, revivedError } from '../errors.js'

/**
 * What a finished load means, as an exit code and the one line that says
 * why: 0 when the target answered, 1 when it failed (it stopped accepting
 * connections, or answered nothing), the failure's own code when a mistake
 * ended the run, `interruptedExitCode` when the user stopped it. Pure, so
 * that every command that runs a load decides alike.
 */

/**
 * @param {import('./summary.js').LoadResult} result
 * @param {{ interruptedExitCode?: number }} [options] 130 unless told (Ctrl-C; 143 is SIGTERM's)
 * @returns {{ exitCode: number, message: string | null }}
 */
export function loadVerdict (result, { interruptedExitCode = 130 } = {}) {
  const failure = loadFailure(result)
  if (failure) return { exitCode: failure.exitCode, message: failure.message }
  return { exitCode: result.interrupted ? interruptedExitCode : 0, message: null }
}

/**
 * The error a finished load failed with, or null when it did not fail.
 * @param {import('./summary.js').LoadResult} result
 * @returns {import('../errors.js').DynoError | null}
 */
export function loadFailure (result) {
  if (result.failure) return revivedError(result.failure)
  if (result.targetRefusing) {
    return result.errors.refused > 0
      ? dynoError('DYNO_LOAD_FAILED.refusing', { refused: result.errors.refused })
      : dynoError('DYNO_LOAD_FAILED.turnedAway', { errors: result.errors.total })
  }
  const { completed, pending, sent } = result.requests
  const errors = result.errors.total
  if (completed === 0 && (errors > 0 || pending > 0 || !result.interrupted)) {
    if (pending > 0 && errors > 0) return dynoError('DYNO_LOAD_FAILED.stillWaitingFailed', { sent, pending, errors })
    if (pending > 0) return dynoError('DYNO_LOAD_FAILED.stillWaiting', { sent, pending })
    if (errors > 0) return dynoError('DYNO_LOAD_FAILED.noAnswer')
    return dynoError('DYNO_LOAD_FAILED.endedFirst')
  }
  return null
}
