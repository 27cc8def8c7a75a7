/**
 * For the tests of dyno compare --load: whether the decision dyno printed
 * follows from the loads it recorded, whatever the machine made of them.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

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
  const perSecond = (/** @type {any} */ load) => load.requests.completed / load.duration
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
