/**
 * Every error dyno raises on purpose carries a stable `DYNO_*` code (listed,
 * with their meanings, in error-codes.js) and an exit code: 2 when the user
 * asked for something that cannot work (a bad flag, URL or file), 1 when the
 * target failed (nothing listening, crashed, never answered), 3 for a bug in
 * dyno. The CLI prints `message` alone, never a stack trace.
 */
export class DynoError extends Error {
  /**
   * @param {string} code stable identifier, `DYNO_*`
   * @param {string} message one line that says what is wrong and how to fix it
   * @param {{ exitCode?: 1 | 2 | 3, cause?: unknown }} [options]
   */
  constructor (code, message, options = {}) {
    super(message, { cause: options.cause })
    this.name = 'DynoError'
    this.code = code
    this.exitCode = options.exitCode ?? 2
  }
}

/**
 * A mistake in what the user asked for: exit code 2.
 * @param {string} code
 * @param {string} message
 */
export function usageError (code, message) {
  return new DynoError(code, message, { exitCode: 2 })
}

/**
 * The target failed: exit code 1.
 * @param {string} code
 * @param {string} message
 * @param {unknown} [cause]
 */
export function targetError (code, message, cause) {
  return new DynoError(code, message, { exitCode: 1, cause })
}

/**
 * Something failed that dyno did not expect: a bug in dyno, not the user's
 * mistake nor the target's failure. Exit code 3.
 * @param {unknown} err
 */
export function internalError (err) {
  const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err)
  return new DynoError('DYNO_INTERNAL', `a bug in dyno (${detail}); please report it with the command line and this output`, { exitCode: 3, cause: err })
}

/** What a file system error means, in words rather than a code. */
const FILE_PROBLEMS = /** @type {Record<string, string>} */ ({
  ENOENT: 'no such file',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'too many symbolic links'
})

/**
 * Why a file could not be read, in words: `no such file`, `it is a folder,
 * not a file`; the system's own message for the rarer kinds.
 * @param {unknown} err
 */
export function fileProblem (err) {
  const code = /** @type {NodeJS.ErrnoException} */ (err)?.code
  return (code && FILE_PROBLEMS[code]) ?? /** @type {Error} */ (err)?.message ?? String(err)
}
