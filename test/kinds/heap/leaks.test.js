/**
 * Which growth is named a leak, on rows and retainer paths made here.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { namedLeaks } from '../../../lib/kinds/heap/leaks.js'

/** @param {string} name @param {number} countDelta */
function row (name, countDelta) {
  return { name, newCount: countDelta, deletedCount: 0, countDelta, allocSize: 0, freedSize: 0, sizeDelta: countDelta * 40, countBefore: 1000, countAfter: 1000 + countDelta, retainedBefore: 0, retainedAfter: 0, retainedDelta: countDelta * 40 }
}

/** @param {string} name @param {string} text @param {string | null} location */
function heldBy (name, text, location) {
  return { name, objects: 500, walked: 500, samples: [], paths: [{ count: 244, steps: [], holder: { text, location } }] }
}

test('strings that fill Node\'s buffer of fetch timings are no leak: it stops at its bound', () => {
  const leaks = namedLeaks(/** @type {any} */ ([row('(string)', 3448)]), /** @type {any} */ ([heldBy('(string)', '`resourceTimingBuffer` array items', 'node:internal/perf/observe:182')]))
  assert.deepEqual(leaks, [])
})

test('strings an app keeps in its own array are one', () => {
  const leaks = namedLeaks(/** @type {any} */ ([row('(string)', 3448)]), /** @type {any} */ ([heldBy('(string)', '`seen` array items', 'app.js:12')]))
  assert.deepEqual(leaks.map((l) => [l.constructor, l.holder, l.location]), [['(string)', '`seen` array items', 'app.js:12']])
})
