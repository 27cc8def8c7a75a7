/**
 * The dyno command to run next, ready to paste: the same load (or
 * --on-port command) and the same app command as the doctor run.
 */

/**
 * @typedef {object} RunCommand how the doctor run was started
 * @property {string[]} argv the app's command
 * @property {number} [pid] the process doctor joined (--pid), instead of a command
 * @property {string | null} load the --load flags as given
 * @property {string | null} onPort the --on-port command as given
 */

/** What each diagnosis leads to: the dyno command and its own flags. GC pressure comes from allocations: where they are made. */
export const NEXT_COMMAND = {
  'event-loop-blocked': 'flame',
  'gc-pressure': 'heap --sampling',
  'memory-growth': 'heap',
  'io-wait': 'async',
  healthy: 'flame'
}

/**
 * @param {string} command the dyno command and its own flags, e.g. 'heap --sampling'
 * @param {RunCommand} run
 */
export function nextCommand (command, run) {
  const words = ['dyno', command]
  if (run.load !== null) words.push('--load', shellWord(run.load))
  else if (run.onPort !== null) words.push('--on-port', shellWord(run.onPort))
  // A process joined with --pid runs on: the next command joins it too.
  if (run.pid !== undefined) return [...words, '--pid', String(run.pid)].join(' ')
  return [...words, '--', ...run.argv.map(shellWord)].join(' ')
}

/**
 * A word as a POSIX shell reads it back: as it is when it holds nothing the
 * shell would act on, otherwise in single quotes.
 * @param {string} word
 */
export function shellWord (word) {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word
  return `'${word.replace(/'/g, "'\\''")}'`
}
