/**
 * A fan-out that a paused process makes look queued: the pure rule of
 * findFanOuts on a request graph made here.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { findFanOuts } from '../../../lib/kinds/async/patterns.js'

/**
 * A request that made `waits.length` operations at one site at time 0, each settled `waits[i]` ms later.
 * @param {number[]} waits
 */
function graphOf (waits) {
  const ops = waits.map((wait, i) => ({ id: i + 1, site: 7, exec: 0, trigger: 0, created: 0, type: 'Timeout', settledAt: wait }))
  return /** @type {any} */ ({
    request: { ops },
    isWork: () => true,
    isAwait: () => false,
    placeOf: () => 'app.js:7',
    settled: (/** @type {{ settledAt: number }} */ op) => op.settledAt,
    waitedOn: () => null
  })
}

test('twenty waits that settle in waves of five are a queue: an unbounded fan-out', () => {
  const waits = Array.from({ length: 20 }, (_, i) => 20 * (1 + Math.floor(i / 5)) + (i % 5) * 0.1)
  const [fan] = findFanOuts(graphOf(waits))
  assert.equal(fan.count, 20)
  assert.equal(fan.atOnce, 5)
})

test('eighteen of twenty settling together and two a pause later: no fan-out found', () => {
  const waits = [...Array.from({ length: 18 }, (_, i) => 20 + i * 0.05), 118.3, 118.4]
  assert.deepEqual(findFanOuts(graphOf(waits)), [])
})
