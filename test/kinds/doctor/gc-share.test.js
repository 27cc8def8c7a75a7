/**
 * The share of time in GC, per chart point and per second: never over 100%,
 * whether a pause straddles sample intervals, several pauses sum to more
 * than a short interval, or pauses of several threads overlap, and with the
 * recorded pause time all there.
 */
import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { test } from 'node:test'
import { analyzeDoctor } from '../../../lib/kinds/doctor/analyze.js'
import { chartData } from '../../../lib/kinds/doctor/chart-data.js'
import { gcMsOf, gcMsSpread, secondsOf } from '../../../lib/kinds/doctor/series.js'
import { makeSeries, recordedSeries } from '../../helpers/doctor-samples.js'

const RECORDED = readdirSync(new URL('../../fixtures/doctor/series/', import.meta.url)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length))

/** @param {number[]} values */
const sum = (values) => values.reduce((a, b) => a + b, 0)

/** @param {ReturnType<typeof chartData>} charts the GC ms the chart shows, from its shares and spans */
const chartedGcMs = (charts) => sum(charts.series.gcShare.map((share, i) => Number(share) * Number(charts.series.span[i]) / 100))

test('on every recorded run no point of the GC chart is over 100%, and the chart still holds all the recorded pause time', () => {
  let over = 0
  for (const name of RECORDED) {
    const { samples, loadWindow } = recordedSeries(name)
    // Some recorded runs hold samples whose pauses are longer than their interval: what the chart once drew above 100%.
    over += samples.filter((s) => gcMsOf(s) > s.dt).length
    const charts = chartData(samples, [])
    const highest = Math.max(...charts.series.gcShare.map(Number))
    assert.ok(highest <= 100 + 1e-9, `${name}: a point at ${highest.toFixed(1)}%`)
    const recorded = sum(samples.map(gcMsOf))
    assert.ok(Math.abs(chartedGcMs(charts) - recorded) < 1e-6 * Math.max(1, recorded), `${name}: ${chartedGcMs(charts)} ms charted of ${recorded} ms`)
    const seconds = secondsOf(samples, loadWindow, 50)
    for (const second of seconds) assert.ok(second.gcMs <= second.span + 1e-9, `${name}: ${second.gcMs} ms of GC in ${second.span} ms`)
  }
  assert.ok(over > 0, 'the recorded runs hold samples with more pause time than their interval')
})

test('a pause reported after the intervals it ran in goes back to them; several pauses in a short interval, likewise', () => {
  const samples = makeSeries({ seconds: 1 })
  // A 45 ms pause, reported in the 10 ms interval after it ran: the lines before had no GC.
  samples[40].gc = { scavenge: [1, 45], max: 45 }
  // Three pauses of 6 ms in a 4 ms interval.
  samples[80].dt = 4
  samples[80].gc = { scavenge: [3, 18], max: 6 }
  const spread = gcMsSpread(samples)
  assert.deepEqual(spread.slice(36, 41), [5, 10, 10, 10, 10])
  assert.deepEqual(spread.slice(78, 81), [4, 10, 4])
  for (const [i, s] of samples.entries()) assert.ok(spread[i] <= s.dt, `sample ${i}: ${spread[i]} ms in ${s.dt} ms`)
  assert.equal(sum(spread), 45 + 18)
  const charts = chartData(samples, [])
  assert.ok(Math.max(...charts.series.gcShare.map(Number)) <= 100)
  assert.equal(chartedGcMs(charts), 45 + 18)
})

test('pauses of several threads that overlap: the share stops at 100%, and the analysis agrees with the chart', () => {
  // Every sample reports 15 ms of GC in 10 ms: more than the whole run can hold.
  const samples = makeSeries({ seconds: 2, shape: () => ({ gc: { scavenge: [3, 15], max: 5 } }) })
  const charts = chartData(samples, [])
  assert.ok(charts.series.gcShare.every((share) => Number(share) <= 100))
  assert.equal(Math.max(...charts.series.gcShare.map(Number)), 100)
  const first = samples[0]
  const window = { startMs: first.t - first.dt, endMs: /** @type {any} */ (samples.at(-1)).t }
  const analysis = analyzeDoctor({ samples, loadWindow: window, driver: 'on-port', load: null, run: { argv: ['node', 'app.js'], load: null, onPort: 'true' } })
  assert.ok(analysis.summary && analysis.summary.gc.share <= 1, `share ${analysis.summary?.gc.share}`)
  for (const second of analysis.seconds) assert.ok(second.gcMs <= second.span)
})
