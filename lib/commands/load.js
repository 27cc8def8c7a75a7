import { load } from '../load/run.js'
import { signalExitCode } from './io.js'

/**
 * `dyno load`: HTTP load at a server, with the exit code its result deserves.
 * @param {import('../load/options.js').LoadOptions} options
 * @param {import('./io.js').CommandIO} io
 * @returns {Promise<{ result: import('../load/summary.js').LoadResult, exitCode: number, problem: string | null }>}
 */
export async function runLoad (options, io) {
  const emit = io.onEvent
  emit?.({ type: 'load-start', options })
  let result
  try {
    result = await load({ ...options, signal: io.signal, onProgress: emit ? (progress) => emit({ type: 'load-progress', progress }) : undefined })
  } finally {
    emit?.({ type: 'load-end' })
  }
  if (result.targetRefusing) {
    return { result, exitCode: 1, problem: `the target stopped accepting connections during the run (${result.errors.refused} refused); did it crash?` }
  }
  if (result.requests.completed === 0 && result.errors.total > 0) {
    return { result, exitCode: 1, problem: 'the target did not answer a single request; see the errors above' }
  }
  const signal = io.signal?.reason
  return { result, exitCode: result.interrupted ? signalExitCode(typeof signal === 'string' ? signal : 'SIGINT') : 0, problem: null }
}
