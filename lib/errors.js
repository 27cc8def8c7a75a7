import { ERROR_CODES } from './error-codes.js'

/**
 * Every error dyno raises on purpose carries a stable `DYNO_*` code and an
 * exit code: 2 when the user asked for something that cannot work (a bad
 * flag, URL or file), 1 when the target failed (nothing listening, crashed,
 * never answered), 3 when a gate dyno was asked to apply failed (--fail-on),
 * 70 for a bug in dyno (sysexits' EX_SOFTWARE). Each is declared once, with its
 * message, in error-codes.js, and raised by name with `dynoError`. The CLI
 * prints `message` alone, never a stack trace.
 */
export class DynoError extends Error {
  /**
   * @param {string} code stable identifier, `DYNO_*`
   * @param {string} message one line that says what is wrong and how to fix it
   * @param {{ exitCode?: 1 | 2 | 3 | 70, cause?: unknown }} [options]
   */
  constructor (code, message, options = {}) {
    super(message, { cause: options.cause })
    this.name = 'DynoError'
    this.code = code
    this.exitCode = options.exitCode ?? 2
  }
}

/**
 * @typedef {typeof ERROR_CODES} Registry
 * @typedef {keyof Registry} ErrorCode
 * @typedef {{ [C in ErrorCode]: Registry[C] extends { messages: infer M } ? `${C}.${keyof M & string}` : C }[ErrorCode]} ErrorId
 *   a declared message: its code, and its name when the code has several (`DYNO_BAD_URL.notUrl`)
 * @typedef {{ cause?: unknown }} ErrorOptions
 */

/**
 * The names of the values a template takes: `{out}` takes `out`.
 * @template {string} S
 * @typedef {S extends `${string}{${infer P}}${infer R}` ? (P extends '' | `${string} ${string}` ? never : P) | Placeholders<R> : never} Placeholders
 */

/**
 * @template {ErrorId} I
 * @typedef {I extends `${infer C extends ErrorCode}.${infer K}` ? (Registry[C] extends { messages: infer M } ? M[K & keyof M] : never) : I extends ErrorCode ? (Registry[I] extends { message: infer T } ? T : never) : never} TemplateOf
 */

/**
 * The values a message takes, then (for dynoError) the error's cause.
 * @template {ErrorId} I
 * @typedef {[Placeholders<TemplateOf<I> & string>] extends [never]
 *   ? [values?: Record<string, never>, options?: ErrorOptions]
 *   : [values: { [K in Placeholders<TemplateOf<I> & string>]: string | number }, options?: ErrorOptions]} ValuesOf
 */

/**
 * The code and the words of a declared message, with its values in place.
 */
export const errorInfo = /** @type {<I extends ErrorId>(id: I, ...values: ValuesOf<I>) => { code: ErrorCode, message: string }} */ (render)

/**
 * A declared error, ready to throw: `throw dynoError('DYNO_BAD_OUT.notFolder', { out })`.
 * Its exit code is the one its code is declared with.
 */
export const dynoError = /** @type {<I extends ErrorId>(id: I, ...values: ValuesOf<I>) => DynoError} */ (create)

/**
 * @param {string} id @param {Record<string, string | number>} [values]
 * @returns {{ code: ErrorCode, message: string }}
 */
function render (id, values = {}) {
  const [code, name] = /** @type {[ErrorCode, string | undefined]} */ (id.split('.'))
  const entry = /** @type {{ message?: string, messages?: Record<string, string> } | undefined} */ (ERROR_CODES[code])
  const template = name === undefined ? entry?.message : entry?.messages?.[name]
  if (typeof template !== 'string') throw new TypeError(`${id} is not a message declared in lib/error-codes.js`)
  const message = template.replace(/\{(\w+)\}/g, (_, key) => {
    if (!(key in values)) throw new TypeError(`${id} takes a value for {${key}}`)
    return String(values[key])
  })
  return { code, message }
}

/**
 * @param {string} id @param {Record<string, string | number>} [values] @param {ErrorOptions} [options]
 */
function create (id, values, options) {
  const { code, message } = render(id, values)
  return new DynoError(code, message, { exitCode: exitCodeOf(code), cause: options?.cause })
}

/**
 * The exit code a code is declared with.
 * @param {string} code
 * @returns {1 | 2 | 3 | 70}
 */
export function exitCodeOf (code) {
  return /** @type {Record<string, { exitCode: 1 | 2 | 3 | 70 }>} */ (ERROR_CODES)[code]?.exitCode ?? 70
}

/**
 * A DynoError again, from what one carried across a thread or into a
 * result: its code, message and exit code.
 * @param {{ code: string, message: string, exitCode: number }} error
 */
export function revivedError ({ code, message, exitCode }) {
  return new DynoError(code, message, { exitCode: /** @type {1 | 2 | 3 | 70} */ (exitCode) })
}

/**
 * The same error, its message led by what it is about: `after (round 2): …`.
 * @param {DynoError} err
 * @param {string} label
 */
export function labelledError (err, label) {
  return new DynoError(err.code, `${label}: ${err.message}`, { exitCode: /** @type {1 | 2 | 3 | 70} */ (err.exitCode), cause: err })
}

/**
 * Something failed that dyno did not expect: a bug in dyno, not the user's
 * mistake nor the target's failure. Exit code 3.
 * @param {unknown} err
 */
export function internalError (err) {
  const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err)
  return dynoError('DYNO_INTERNAL.bug', { detail }, { cause: err })
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
