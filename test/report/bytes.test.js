/**
 * One meaning of a megabyte: 10^6 bytes (1 kB is 1000 B), as DevTools
 * counts them, on the terminal and in the HTML reports alike, where the same
 * function of lib/format.js writes them. The doctor and heap reports of one
 * heap say the same figures.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { MB, bytes, signedBytes } from '../../lib/format.js'
import { analyzeDoctor } from '../../lib/kinds/doctor/analyze.js'
import { renderDoctorHtml } from '../../lib/kinds/doctor/html.js'
import { keyFigures } from '../../lib/kinds/doctor/terminal.js'
import { renderHeapHtml } from '../../lib/kinds/heap/html.js'
import { renderHeapSummary } from '../../lib/kinds/heap/terminal.js'
import { createStyle } from '../../lib/report/style.js'
import { reportFile, reportViewerForTests } from '../helpers/browser.js'
import { recordedSeries } from '../helpers/doctor-samples.js'
import { headerFacts, textOf } from '../helpers/report-page.js'

test('bytes are written in decimal units: 1 kB is 1000 B, 1 MB is 10^6 B, three significant digits at most', () => {
  assert.equal(MB, 1e6)
  assert.equal(bytes(0), '0 B')
  assert.equal(bytes(999), '999 B')
  assert.equal(bytes(1000), '1 kB')
  assert.equal(bytes(1024), '1.02 kB')
  assert.equal(bytes(812_400), '812 kB')
  assert.equal(bytes(1e6), '1 MB')
  assert.equal(bytes(2 ** 20), '1.05 MB', 'a mebibyte is not a megabyte')
  assert.equal(bytes(12_345_678), '12.3 MB')
  assert.equal(bytes(150_270_704), '150 MB')
  assert.equal(bytes(1.5e9), '1.5 GB')
  assert.equal(bytes(2e12), '2 TB')
  assert.equal(bytes(-4_500_000), '-4.5 MB')
  assert.equal(signedBytes(4_500_000), '+4.5 MB')
  assert.equal(signedBytes(-812), '-812 B')
  assert.equal(signedBytes(0), '0 B')
})

// leaking.js under dyno doctor for 15 s on Node 24: the heap that dyno's full GCs left before the load
// and after it, as recorded (test/fixtures/doctor/series/leaking-long.json).
const leaking = recordedSeries('leaking-long')
const before = /** @type {{ heapUsed: number }} */ (leaking.fullGcs.before).heapUsed
const after = /** @type {{ heapUsed: number }} */ (leaking.fullGcs.after).heapUsed
const LOAD = '-c 10 -d 15 http://127.0.0.1:$PORT/'
const doctor = analyzeDoctor({ ...leaking, driver: 'load', run: { argv: ['node', 'examples/doctor/leaking.js'], load: LOAD, onPort: null } })

/** @type {import('../../lib/run-folder.js').RunMeta} */
const doctorMeta = {
  schemaVersion: 2,
  kind: 'doctor',
  title: 'node examples/doctor/leaking.js',
  target: { argv: ['node', 'examples/doctor/leaking.js'], cwd: '/srv' },
  source: null,
  cwd: '/srv',
  node: '24.1.0',
  v8: null,
  startedAt: '2026-11-23T10:00:00.000Z',
  finishedAt: '2026-11-23T10:00:20.000Z',
  options: { sampleIntervalMs: 10, loadFlags: LOAD, load: 'http://127.0.0.1:$PORT/', onPort: null },
  load: leaking.load,
  loadWindow: leaking.loadWindow,
  onPort: null,
  process: null,
  processes: 1,
  threads: 0,
  end: { how: 'stopped by dyno after the load', code: null, signal: null, clean: true, stoppedByDyno: true }
}

/** dyno heap's two snapshots of that same heap: nothing but their sizes matters here. */
const heap = {
  title: 'node examples/doctor/leaking.js',
  startedAt: '2026-11-23T10:00:00.000Z',
  node: '24.1.0',
  timings: [],
  html: '/srv/.dyno/heap/report.html',
  analysis: /** @type {import('../../lib/kinds/heap/analyze.js').HeapAnalysis} */ ({
    schemaVersion: 1,
    snapshots: [{ file: 'before.heapsnapshot', nodes: 61_000, edges: 240_000, size: before }, { file: 'after.heapsnapshot', nodes: 1_461_000, edges: 5_300_000, size: after }],
    comparison: [],
    growing: [],
    leaks: [],
    details: [],
    candidates: 'new'
  })
}

const viewer = reportViewerForTests()

test('the doctor and heap reports of one heap write its bytes the same, on the terminal and in the browser', async () => {
  const [beforeText, afterText] = [bytes(before), bytes(after)]
  assert.deepEqual([beforeText, afterText], ['7.07 MB', '150 MB'])

  const figures = Object.fromEntries(keyFigures(/** @type {import('../../lib/kinds/doctor/summary.js').DoctorSummary} */ (doctor.summary)))
  assert.equal(figures['Heap after a full GC'], '7.07 MB before the load, 150 MB after it')
  const [growth] = doctor.diagnoses
  assert.equal(growth.kind, 'memory-growth')
  assert.match(growth.evidence, /, and a full GC after the load left 150 MB \(7\.07 MB in one before it\)$/)

  const heapTerminal = renderHeapSummary(heap, null, createStyle({ isTTY: false }))
  assert.match(heapTerminal, /^Heap: 7\.07 MB → 150 MB \(\+143 MB\), 61,000 → 1,461,000 objects\n/)

  await viewer.check(reportFile(renderDoctorHtml({ meta: doctorMeta, analysis: doctor, samples: leaking.samples, timeline: [] })), async (page) => {
    assert.match(await textOf(page, '#diagnoses .evidence'), /, and a full GC after the load left 150 MB \(7\.07 MB in one before it\)\.$/)
  })
  await viewer.check(reportFile(renderHeapHtml(heap)), async (page) => {
    assert.ok((await headerFacts(page)).includes('heap 7.07 MB → 150 MB (+143 MB)'))
    assert.equal(await textOf(page, '#snapshots'), 'before.heapsnapshot7.07 MB in 61,000 objectsafter.heapsnapshot150 MB in 1,461,000 objects')
  })
})
