import { load } from '../../load/run.js'
import { loadVerdict } from '../../load/verdict.js'
import { signalExitCode } from '../../commands/io.js'
import { judgeThresholds, thresholdsOutcome } from './thresholds.js'

/**
 * @typedef {object} LoadOutcome
 * @property {import('../../load/summary.js').LoadResult} result
 * @property {number} exitCode the run's own when it failed or was stopped (1, 130...); else 2 when a
 *   threshold cannot be judged, 3 when one is broken, 0
 * @property {string | null} problem the line that says why the run failed
 * @property {import('./thresholds.js').Verdict[] | null} verdicts each threshold judged; null without thresholds
 * @property {string[]} thresholdLines one line for each threshold that did not hold
 */

/**
 * `dyno load`: HTTP load at a server, with the exit code its result deserves.
 * @param {import('../../load/options.js').LoadOptions} options
 * @param {import('../../commands/io.js').CommandIO} io
 * @param {{ thresholds?: readonly import('./thresholds.js').Threshold[] | null }} [judge] thresholds to judge the result on (--fail-on)
 * @returns {Promise<LoadOutcome>}
 */
export async function runLoad (options, io, { thresholds = null } = {}) {
  const emit = io.onEvent
  emit?.({ type: 'load-start', options })
  let result
  try {
    result = await load({ ...options, signal: io.signal, onProgress: emit ? (progress) => emit({ type: 'load-progress', progress }) : undefined })
  } finally {
    emit?.({ type: 'load-end' })
  }
  const signal = io.signal?.reason
  const { exitCode, message } = loadVerdict(result, { interruptedExitCode: signalExitCode(typeof signal === 'string' ? signal : 'SIGINT') })
  if (!thresholds) return { result, exitCode, problem: message, verdicts: null, thresholdLines: [] }
  // Judged and reported whatever the run's end; a failed or stopped run keeps its own exit code.
  const verdicts = judgeThresholds(thresholds, result)
  const judged = thresholdsOutcome(verdicts)
  return { result, exitCode: exitCode !== 0 ? exitCode : judged.exitCode, problem: message, verdicts, thresholdLines: judged.lines }
}
