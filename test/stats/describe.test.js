import assert from 'node:assert/strict'
import { test } from 'node:test'
import { describe, mean, median, percentile, stdev, sum } from '../../lib/stats/describe.js'

test('on no data every figure is 0, whichever asks', () => {
  assert.deepEqual([sum([]), mean([]), median([]), percentile([], 99), stdev([])], [0, 0, 0, 0, 0])
  assert.deepEqual(describe([], [50, 99]), { mean: 0, stdev: 0, min: 0, max: 0, percentiles: { 50: 0, 99: 0 } })
})

test('the figures of a few numbers', () => {
  assert.equal(sum([1, 2, 3.5]), 6.5)
  assert.equal(mean([2, 4, 9]), 5)
  assert.equal(median([9, 1, 4]), 4)
  assert.equal(median([4, 1, 9, 2]), 3)
  assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90), 9, 'nearest rank, as HdrHistogram reports it')
  assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 99), 10)
  assert.equal(stdev([2, 4, 4, 4, 5, 5, 7, 9]).toFixed(4), '2.1381')
})
