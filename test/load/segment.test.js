import assert from 'node:assert/strict'
import { test } from 'node:test'
import { engineConfig } from '../../lib/load/config.js'
import { resolveOptions } from '../../lib/load/options.js'
import { requestsDue } from '../../lib/load/open-model.js'
import { parseSegment, shareOf, stripe } from '../../lib/load/segment.js'

const URL = 'http://127.0.0.1:3000/'

/** The engine configurations of every worker of every segment of a load. */
function everyEngine (/** @type {object} */ load, /** @type {number} */ segments, /** @type {number} */ workers) {
  const engines = []
  for (let i = 0; i < segments; i++) {
    const options = resolveOptions({ url: URL, ...load, workers, segment: { index: i, count: segments } })
    for (let w = 0; w < Math.max(1, workers); w++) engines.push(engineConfig(options, [{}], w, Math.max(1, workers)))
  }
  return engines
}

test('the shares add up to the whole: -a 1000 over 3 generators is 334 + 333 + 333', () => {
  const shares = [0, 1, 2].map((index) => shareOf(1000, stripe([{ index, count: 3 }])))
  assert.deepEqual(shares, [334, 333, 333])
  for (const [segments, workers] of [[1, 0], [3, 0], [3, 2], [7, 3], [4, 1]]) {
    const engines = everyEngine({ connections: 30, amount: 1001 }, segments, workers)
    assert.equal(engines.reduce((n, e) => n + e.connections, 0), 30, `${segments} segments × ${workers} workers`)
    assert.equal(engines.reduce((n, e) => n + e.amount, 0), 1001)
  }
})

test('at a rate, the generators interleave: together they send every request due, each at its own instant', () => {
  const rate = 1000
  const duration = 2
  for (const [segments, workers] of [[1, 0], [3, 0], [2, 2], [5, 3]]) {
    const engines = everyEngine({ connections: 30, rate, duration }, segments, workers)
    assert.equal(engines.reduce((n, e) => n + (e.due ?? 0), 0), requestsDue(rate, duration * 1000))
    // Each engine's k-th request is due at phase + k × (1000 / its rate): together, every 1 ms once.
    const instants = engines.flatMap((e) => Array.from({ length: e.due ?? 0 }, (_, k) => Math.round((e.phaseMs ?? 0) + k * 1000 / e.rate)))
    assert.deepEqual(instants.sort((a, b) => a - b), Array.from({ length: rate * duration }, (_, k) => k), `${segments} segments × ${workers} workers`)
  }
})

test('--segment reads i/n with i from 0, and refuses the rest', () => {
  assert.deepEqual(parseSegment('2/3'), { index: 2, count: 3 })
  assert.deepEqual(parseSegment(' 0 / 1 '), { index: 0, count: 1 })
  for (const bad of ['3/3', '1/0', '-1/3', '1.5/3', 'a/b', '1', '1/3/4', '']) assert.equal(parseSegment(bad), null, bad)
})

test('a segment with nothing to do is refused in one line', () => {
  assert.throws(() => resolveOptions({ url: URL, connections: 3, segment: { index: 3, count: 4 } }), { code: 'DYNO_EMPTY_SEGMENT', message: /segment 3\/4 has nothing to do: 4 generators share -c 3 connections/ })
  assert.throws(() => resolveOptions({ url: URL, connections: 10, amount: 2, segment: { index: 2, count: 3 } }), { code: 'DYNO_EMPTY_SEGMENT', message: /-a 2 requests/ })
  assert.throws(() => resolveOptions({ url: URL, connections: 4, workers: 2, segment: { index: 3, count: 4 } }), { code: 'DYNO_EMPTY_SEGMENT', message: /segment 3\/4 has 1 of the 4/ })
  assert.throws(() => resolveOptions({ url: URL, segment: { index: 1, count: 1 } }), { code: 'DYNO_BAD_SEGMENT' })
  assert.throws(() => resolveOptions({ url: URL, startAt: Date.now() + 2 * 3600_000 }), { code: 'DYNO_BAD_START' })
})
