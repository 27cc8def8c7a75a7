import { parseArgs } from 'node:util'
import { dynoError } from '../errors.js'

/**
 * Every command declares its flags once, as data; parsing, checking and the
 * `--help` text all come from that declaration.
 *
 * @typedef {'boolean' | 'string' | 'integer' | 'number' | 'duration'} FlagType
 *
 * @typedef {object} Flag
 * @property {string} name long name, used as `--name`
 * @property {string} [short] one letter, used as `-x`
 * @property {FlagType} type `duration` takes seconds: `10`, `10s`, `500ms`, `2m`
 * @property {string} description
 * @property {string | number | boolean} [default]
 * @property {string} [placeholder] shown in help: `-c, --connections <n>`
 * @property {boolean} [multiple] may be repeated; the value is an array
 * @property {number} [min] smallest accepted number
 * @property {number} [max] largest accepted number
 * @property {string} [maxReason] why, said after the limit
 * @property {boolean} [longerThanTimers] a duration its user waits out in steps (lib/load/timers.js), so past
 *   MAX_DURATION_S too; other durations are refused past it
 */

/**
 * @typedef {object} Command
 * @property {string} name
 * @property {string} usage e.g. `dyno load [flags] <url>`
 * @property {string} summary one line for `dyno --help`
 * @property {string} [details] paragraphs after the usage line
 * @property {readonly Flag[]} flags
 * @property {readonly string[]} [examples]
 */

/**
 * The value a declared flag parses to. A command declared as a constant
 * (a JSDoc const type cast) gets its values typed from its declaration.
 * @template {Flag} F
 * @typedef {F['type'] extends 'boolean' ? boolean : F['type'] extends 'string' ? string : number} FlagScalar
 */
/**
 * @template {Flag} F
 * @typedef {F extends { multiple: true } ? FlagScalar<F>[] : F extends { default: string | number | boolean } ? FlagScalar<F> : FlagScalar<F> | undefined} FlagValue
 */
/**
 * @template {readonly Flag[]} L
 * @typedef {{ [F in L[number] as F['name']]: FlagValue<F> } & { help: boolean }} FlagValues
 */

const HELP = /** @type {Flag} */ ({ name: 'help', short: 'h', type: 'boolean', description: 'show this help' })

/**
 * @template {Command} C
 * @param {C} command
 * @param {string[]} argv the arguments after the command name
 * @returns {{ values: Readonly<FlagValues<C['flags']>>, positionals: string[], given: Set<string>, help: boolean }}
 */
export function parseFlags (command, argv) {
  const flags = [...command.flags, HELP]
  /** @type {NonNullable<Parameters<typeof parseArgs>[0]>['options']} */
  const config = /** @type {Record<string, any>} */ ({})
  for (const flag of flags) {
    config[flag.name] = {
      type: flag.type === 'boolean' ? 'boolean' : 'string',
      ...(flag.short ? { short: flag.short } : {}),
      ...(flag.multiple ? { multiple: true } : {})
    }
  }
  /** @type {Record<string, boolean>} */
  const negated = {}
  /** @type {string[]} */
  const args = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const m = /^--no-(.+)$/.exec(arg)
    const negatable = m && flags.find((f) => f.name === m[1] && f.type === 'boolean')
    if (negatable) {
      negated[negatable.name] = true
      continue
    }
    // A value may start with "-" (`--load '-c 10 URL'`, `-d -5`): bind it
    // to its flag, where parseArgs would call it ambiguous.
    const valued = flags.find((f) => f.type !== 'boolean' && (arg === `--${f.name}` || arg === `-${f.short}`))
    if (valued && i + 1 < argv.length && argv[i + 1] !== '--') {
      args.push(`--${valued.name}=${argv[++i]}`)
      continue
    }
    args.push(arg)
  }
  let parsed
  try {
    parsed = parseArgs({ args, options: config, allowPositionals: true, strict: true })
  } catch (err) {
    throw parseError(/** @type {NodeJS.ErrnoException} */ (err), flags, command.name)
  }
  /** @type {Record<string, any>} */
  const values = {}
  const given = new Set(Object.keys(negated))
  for (const flag of flags) {
    const raw = /** @type {Record<string, any>} */ (parsed.values)[flag.name]
    if (raw !== undefined) given.add(flag.name)
    if (negated[flag.name]) {
      values[flag.name] = false
    } else if (raw === undefined) {
      values[flag.name] = flag.multiple ? [] : flag.default
    } else if (flag.multiple) {
      values[flag.name] = raw.map((/** @type {string} */ v) => convert(flag, v))
    } else {
      values[flag.name] = convert(flag, raw)
    }
  }
  return { values: /** @type {FlagValues<C['flags']>} */ (values), positionals: parsed.positionals, given, help: values.help === true }
}

/**
 * @param {NodeJS.ErrnoException} err what parseArgs threw
 * @param {readonly Flag[]} flags
 * @param {string} command
 */
function parseError (err, flags, command) {
  const option = /'([^']+)'/.exec(err.message)?.[1] ?? ''
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const name = option.replace(/^-+/, '').split('=')[0]
      // A suggestion only for a misspelt long name: two edits turn any short one into another.
      const close = name.length > 3 ? flags.find((f) => editDistance(f.name, name) <= 2) : undefined
      if (close) return dynoError('DYNO_BAD_FLAG.unknownDidYouMean', { flag: option, suggestion: close.name, command })
      return dynoError('DYNO_BAD_FLAG.unknown', { flag: option, command })
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const name = /--([a-z-]+)/.exec(err.message)?.[1]
      const flag = flags.find((f) => f.name === name)
      if (flag && flag.type === 'boolean') return dynoError('DYNO_BAD_FLAG.takesNoValue', { flag: flag.name, command })
      if (flag?.placeholder) return dynoError('DYNO_BAD_FLAG.needsValueLike', { flag: String(name), placeholder: flag.placeholder, command })
      return dynoError('DYNO_BAD_FLAG.needsValue', { flag: String(name), command })
    }
    default:
      return dynoError('DYNO_BAD_FLAG.unparsed', { problem: err.message.split('\n')[0], command })
  }
}

/**
 * Levenshtein distance, for "did you mean" on a mistyped flag.
 * @param {string} a @param {string} b
 */
function editDistance (a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]
}

/**
 * @param {Flag} flag
 * @param {string | boolean} raw
 */
function convert (flag, raw) {
  if (flag.type === 'boolean' || flag.type === 'string') return raw
  const text = String(raw).trim()
  let value
  if (flag.type === 'duration') {
    value = parseDuration(text)
  } else if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) {
    value = Number(text)
  } else {
    value = NaN
  }
  const label = `${flag.short ? `-${flag.short}/` : ''}--${flag.name}`
  if (!Number.isFinite(value)) {
    if (flag.type === 'duration') throw dynoError('DYNO_BAD_FLAG.notDuration', { flag: label, text })
    throw dynoError(flag.type === 'integer' ? 'DYNO_BAD_FLAG.notWholeNumber' : 'DYNO_BAD_FLAG.notNumber', { flag: label, text })
  }
  if (flag.type === 'integer' && !Number.isInteger(value)) {
    throw dynoError('DYNO_BAD_FLAG.notWholeNumber', { flag: label, text })
  }
  const min = flag.min ?? (flag.type === 'integer' ? 0 : Number.MIN_VALUE)
  if (value < min) {
    throw min === Number.MIN_VALUE ? dynoError('DYNO_BAD_FLAG.notAboveZero', { flag: label, text }) : dynoError('DYNO_BAD_FLAG.belowMin', { flag: label, min, text })
  }
  if (flag.max !== undefined && value > flag.max) {
    throw flag.maxReason
      ? dynoError('DYNO_BAD_FLAG.aboveMaxBecause', { flag: label, max: flag.max, reason: flag.maxReason, text })
      : dynoError('DYNO_BAD_FLAG.aboveMax', { flag: label, max: flag.max, text })
  }
  // Past Node's longest timer, a timeout would fire at once.
  if (flag.type === 'duration' && !flag.longerThanTimers && value > MAX_DURATION_S) {
    throw dynoError('DYNO_BAD_FLAG.beyondTimers', { flag: label, max: MAX_DURATION_S, text })
  }
  return value
}

/** The longest duration a flag takes, in seconds: Node's timers hold at most 2^31 - 1 ms. */
export const MAX_DURATION_S = Math.floor((2 ** 31 - 1) / 1000)

/**
 * Seconds from `10`, `10s`, `1.5s`, `500ms`, `2m`, `1h`.
 * @param {string} text
 */
export function parseDuration (text) {
  const m = /^(\d+\.?\d*|\.\d+)\s*(ms|s|m|h)?$/.exec(text)
  if (!m) return NaN
  const n = Number(m[1])
  switch (m[2]) {
    case 'ms': return n / 1000
    case 'm': return n * 60
    case 'h': return n * 3600
    default: return n
  }
}

/**
 * The text of `dyno <command> --help`.
 * @param {Command} command
 */
export function helpText (command) {
  const flags = [...command.flags, HELP]
  const left = flags.map((flag) => {
    const names = `${flag.short ? `-${flag.short}, ` : '    '}--${flag.name}`
    return flag.type === 'boolean' ? names : `${names} <${flag.placeholder ?? flag.type}>`
  })
  const width = Math.max(...left.map((s) => s.length)) + 2
  const lines = [`Usage: ${command.usage}`, '', command.summary]
  if (command.details) lines.push('', command.details)
  lines.push('', 'Flags:')
  flags.forEach((flag, i) => {
    let text = flag.description
    if (flag.default !== undefined && flag.type !== 'boolean') text += ` (default: ${flag.default})`
    if (flag.type === 'boolean' && flag.default === true) text += ` (default: on; --no-${flag.name} turns it off)`
    if (flag.multiple) text += ' (repeatable)'
    lines.push(`  ${left[i].padEnd(width)}${text}`)
  })
  if (command.examples?.length) {
    lines.push('', 'Examples:')
    for (const example of command.examples) lines.push(`  ${example}`)
  }
  return lines.join('\n') + '\n'
}
