import { dynoError } from '../errors.js'

/**
 * dyno micro's settings in one place: their defaults, what --quick changes,
 * and the MicroSettings the runner takes, for the CLI and for a benchmark
 * file that runs itself.
 *
 * @typedef {object} MicroChoices durations in seconds; undefined: not chosen
 * @property {number} [rounds]
 * @property {number} [warmup]
 * @property {number} [time]
 * @property {number} [timeout]
 * @property {boolean} [quick]
 */

export const DEFAULTS = { rounds: 20, warmup: 0.1, time: 0.05, timeout: 20 }

/** What --quick changes, unless chosen apart. */
// Warm-up stays: a case measured before V8 has tiered it up is measured wrong, not roughly.
export const QUICK = { rounds: 10, time: 0.03 }

/**
 * @param {MicroChoices} choices
 * @returns {import('./runner.js').MicroSettings}
 */
export function microSettings (choices) {
  const base = choices.quick ? { ...DEFAULTS, ...QUICK } : DEFAULTS
  const rounds = choices.rounds ?? base.rounds
  const warmup = choices.warmup ?? base.warmup
  const time = choices.time ?? base.time
  const timeout = choices.timeout ?? base.timeout
  if (!Number.isInteger(rounds) || rounds < 2) throw dynoError('DYNO_BAD_FLAG.rounds', { rounds: String(rounds) })
  for (const [name, value] of Object.entries({ warmup, time, timeout })) {
    if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
      throw dynoError('DYNO_BAD_FLAG.seconds', { name, value: String(value) })
    }
  }
  return { rounds, warmupMs: warmup * 1000, timeMs: time * 1000, sliceMs: 10, sampleMs: 1, timeoutMs: timeout * 1000 }
}
