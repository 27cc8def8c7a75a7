import { load } from '../../load/run.js'
import { loadVerdict } from '../../load/verdict.js'
import { signalExitCode } from '../../commands/io.js'

/**
 * `dyno load`: HTTP load at a server, with the exit code its result deserves.
 * @param {import('../../load/options.js').LoadOptions} options
 * @param {import('../../commands/io.js').CommandIO} io
 * @returns {Promise<{ result: import('../../load/summary.js').LoadResult, exitCode: number, problem: string | null }>}
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
  const signal = io.signal?.reason
  const { exitCode, message } = loadVerdict(result, { interruptedExitCode: signalExitCode(typeof signal === 'string' ? signal : 'SIGINT') })
  return { result, exitCode, problem: message }
}
