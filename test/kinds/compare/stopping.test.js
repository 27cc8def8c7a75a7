/**
 * When dyno compare --load's rounds have their answer, on recorded figures.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { requestsInterval, stopReason } from '../../../lib/kinds/compare/stopping.js'
import { seededRandom } from '../../helpers/random.js'

/**
 * Rounds whose after / before ratio of requests per second is `ratio`, spread by `sd` in logs.
 * @param {number} n @param {number} ratio @param {number} sd @param {number} [seed]
 */
function rounds (n, ratio, sd, seed = 1) {
  const random = seededRandom(seed)
  const figures = (/** @type {number} */ rps) => ({ requestsPerSecond: rps, p50: 1, p99: 2, cpuPerRequest: null, completed: rps, errors: 0, non2xx: 0 })
  return Array.from({ length: n }, (_, i) => {
    const machine = 1000 * Math.exp(0.3 * random.normal())
    return { order: /** @type {('before' | 'after')[]} */ (i % 2 ? ['after', 'before'] : ['before', 'after']), before: figures(machine), after: figures(machine * ratio * Math.exp(sd * random.normal())) }
  })
}

const open = { rounds: null, precision: 0.025, maxTimeMs: 180_000, failIfSlower: null }
const early = { started: 0, elapsedMs: 0 }

test('rounds go on while the interval is wider than --precision, and stop when it is within it', () => {
  assert.equal(stopReason(rounds(5, 1, 0.01), { started: 5, elapsedMs: 5000 }, open), null, 'no interval before the sixth round')
  assert.equal(stopReason(rounds(10, 1, 0.05), { started: 10, elapsedMs: 10_000 }, open), null)
  const narrow = rounds(30, 1, 0.01)
  assert.equal(stopReason(narrow, { started: 30, elapsedMs: 30_000 }, open), 'precise')
  const interval = /** @type {{ low: number, high: number }} */ (requestsInterval(narrow))
  assert.ok((interval.high - interval.low) / 2 <= Math.log1p(0.025))
})

test('a change known to within a quarter of its size stops the rounds, however wide its interval', () => {
  assert.equal(stopReason(rounds(8, 3, 0.1), { started: 8, elapsedMs: 8000 }, open), 'clear')
})

test('with --fail-if-slower, the rounds go on until the interval is wholly on one side of its limit', () => {
  const gate = { ...open, failIfSlower: 5 }
  // Within ±2.5% but straddling 0.95: the gate has not answered, so the rounds go on.
  const straddling = rounds(40, 0.95, 0.01, 3)
  assert.equal(stopReason(straddling, { started: 40, elapsedMs: 40_000 }, open), 'precise')
  assert.equal(stopReason(straddling, { started: 40, elapsedMs: 40_000 }, gate), null)
  assert.equal(stopReason(rounds(20, 0.8, 0.02), { started: 20, elapsedMs: 20_000 }, gate), 'gate')
  assert.equal(stopReason(rounds(20, 1, 0.02), { started: 20, elapsedMs: 20_000 }, gate), 'gate')
})

test('no round starts that would end after --max-time; with --rounds, the count alone decides', () => {
  assert.equal(stopReason([], early, open), null)
  // 60 rounds in 175 s: the next would end at about 178 s, inside 3 minutes; at 178 s it would not.
  assert.equal(stopReason(rounds(60, 1, 0.2), { started: 60, elapsedMs: 175_000 }, open), null)
  assert.equal(stopReason(rounds(60, 1, 0.2), { started: 60, elapsedMs: 178_000 }, open), 'time')
  const fixed = { ...open, rounds: 4 }
  assert.equal(stopReason(rounds(3, 3, 0.01), { started: 3, elapsedMs: 999_999 }, fixed), null)
  assert.equal(stopReason(rounds(4, 1, 0.5), { started: 4, elapsedMs: 1 }, fixed), 'rounds')
})
