/**
 * Doctor samples for the analysis and report tests: the series recorded from
 * examples/doctor/ under load (test/fixtures/doctor/series/), and made-up
 * series shaped like the collector's lines.
 */
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { parseSamples } from '../../lib/kinds/doctor/series.js'

const SERIES = new URL('../fixtures/doctor/series/', import.meta.url)

/**
 * A recorded run: its samples, the load window, what the load measured, and
 * the full GCs dyno had the app run around the load (none in runs recorded before it did).
 * @param {string} name
 */
export function recordedSeries (name) {
  const { loadWindow, load, fullGcs } = JSON.parse(readFileSync(new URL(`${name}.json`, SERIES), 'utf8'))
  const samples = parseSamples(gunzipSync(readFileSync(new URL(`${name}.jsonl.gz`, SERIES))).toString('utf8'))
  return {
    samples,
    loadWindow,
    load: /** @type {import('../../lib/load/summary.js').LoadResult} */ (load),
    fullGcs: /** @type {import('../../lib/kinds/doctor/analyze.js').FullGcs} */ (fullGcs ?? { before: null, after: null })
  }
}

/**
 * A made-up series: one sample every `intervalMs` for `seconds`, each shaped
 * by `shape(t, i)` over a quiet, healthy default.
 * @param {object} options
 * @param {number} options.seconds
 * @param {number} [options.intervalMs]
 * @param {number} [options.startMs]
 * @param {(msSinceStart: number, index: number) => Record<string, any>} [options.shape]
 * @returns {import('../../lib/kinds/doctor/series.js').DoctorSample[]}
 */
export function makeSeries ({ seconds, intervalMs = 10, startMs = 1_700_000_000_000, shape = () => ({}) }) {
  const samples = []
  const count = Math.round((seconds * 1000) / intervalMs)
  for (let i = 1; i <= count; i++) {
    const since = i * intervalMs
    samples.push({
      t: startMs + since,
      dt: intervalMs,
      delay: { min: 0.1, p50: 0.5, p99: 1, max: 1.2, n: 5 },
      elu: 0.3,
      cpu: { user: intervalMs * 0.25, system: intervalMs * 0.05 },
      mem: { heapTotal: 20e6, heapUsed: 8e6 + (i % 50) * 2e5, ...(i % 10 === 0 ? { rss: 60e6, external: 2e6, arrayBuffers: 1e5 } : {}) },
      gc: { max: 0 },
      http: { started: 5, finished: 5, inFlight: 1 },
      ...shape(since, i)
    })
  }
  return samples
}
