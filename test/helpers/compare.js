/**
 * For the tests of dyno compare --load: whether the decision dyno printed
 * follows from the loads it recorded, whatever the machine made of them.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { confidenceSequence } from '../../lib/stats/sequential.js'

/**
 * Dyno's decision on requests per second follows from the loads it recorded
 * in the run folder: each round's figure is its load's, the ratio their
 * geometric mean, the verdict what the interval says.
 * @param {any} doc the --json document
 * @param {number} rounds how many were asked for
 */
export function assertFollowsFromLoads (doc, rounds) {
  const requests = doc.comparisons.find((/** @type {any} */ c) => c.name === 'requests')
  const loads = JSON.parse(readFileSync(join(doc.folder, 'rounds.json'), 'utf8'))
  // A round's loads (its slices) count as one load of their total duration.
  const total = (/** @type {any[]} */ loads, /** @type {(l: any) => number} */ figure) => loads.reduce((s, l) => s + figure(l), 0)
  const perSecond = (/** @type {any} */ round) => total(round.loads, (l) => l.requests.completed) / total(round.loads, (l) => l.duration)
  assert.equal(doc.rounds.length, rounds)
  assert.equal(loads.before.length, rounds)
  assert.equal(loads.after.length, rounds)
  /** @type {number[]} */
  const logRatios = doc.rounds.map((/** @type {any} */ round, /** @type {number} */ i) => {
    assert.ok(Math.abs(round.before.requestsPerSecond - perSecond(loads.before[i])) < 1e-6)
    assert.ok(Math.abs(round.after.requestsPerSecond - perSecond(loads.after[i])) < 1e-6)
    return Math.log(round.after.requestsPerSecond / round.before.requestsPerSecond)
  })
  const geometricMean = Math.exp(logRatios.reduce((s, v) => s + v, 0) / logRatios.length)
  assert.ok(Math.abs(requests.ratio / geometricMean - 1) < 1e-9, `ratio ${requests.ratio}, rounds say ${geometricMean}`)
  assert.ok(requests.low <= requests.ratio && requests.ratio <= requests.high)
  const verdict = requests.low > 1 ? 'faster' : requests.high < 1 ? 'slower' : 'indistinguishable'
  assert.equal(requests.verdict, verdict, `${requests.verdict}: ${requests.low}–${requests.high}`)
}

/**
 * Why the rounds of a run without --rounds stopped follows from the interval
 * its rounds give: the reason dyno named holds of them.
 * @param {any} doc the --json document
 */
export function assertStopFollows (doc) {
  const both = doc.rounds.filter((/** @type {any} */ r) => r.before.requestsPerSecond > 0 && r.after.requestsPerSecond > 0)
  const cs = confidenceSequence(both.map((/** @type {any} */ r) => Math.log(r.after.requestsPerSecond / r.before.requestsPerSecond)))
  const half = (cs.high - cs.low) / 2
  const { precision, maxTimeMs, failIfSlower } = doc.settings
  const requests = doc.comparisons.find((/** @type {any} */ c) => c.name === 'requests')
  assert.ok(Math.abs(Math.log(requests.low) - cs.low) < 1e-9 && Math.abs(Math.log(requests.high) - cs.high) < 1e-9, 'the interval is the confidence sequence of the rounds')
  switch (doc.stopped) {
    case 'precise': assert.ok(half <= Math.log1p(precision), `${half}`); break
    case 'clear': assert.ok(half <= Math.abs(cs.mean) / 4, `${half} ${cs.mean}`); break
    case 'gate': {
      const limit = Math.log(1 - failIfSlower / 100)
      assert.ok(cs.high < limit || cs.low > limit, `${cs.low}–${cs.high} against ${limit}`)
      break
    }
    case 'time': assert.ok(doc.elapsedMs * (1 + 1 / doc.rounds.length) > maxTimeMs * 0.9, `${doc.elapsedMs} of ${maxTimeMs}`); break
    default: assert.fail(`stopped: ${doc.stopped}`)
  }
}
