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
  if (result.failure) return { exitCode: result.failure.exitCode, message: result.failure.message }
  if (result.targetRefusing) {
    return { exitCode: 1, message: `the target stopped accepting connections during the run (${result.errors.refused} refused); did it crash?` }
  }
  const { completed, pending, sent } = result.requests
  const errors = result.errors.total
  if (completed === 0 && (errors > 0 || pending > 0 || !result.interrupted)) {
    return { exitCode: 1, message: nothingAnswered(sent, pending, errors) }
  }
  return { exitCode: result.interrupted ? interruptedExitCode : 0, message: null }
}

/** @param {number} sent @param {number} pending @param {number} errors */
function nothingAnswered (sent, pending, errors) {
  if (pending > 0) {
    const failed = errors > 0 ? `, ${errors} failed (see the errors above)` : ''
    return `the target answered none of the ${sent} requests sent: ${pending} were still waiting for an answer when the run ended${failed}`
  }
  if (errors > 0) return 'the target did not answer a single request; see the errors above'
  return 'the run ended before the target answered a single request'
}
