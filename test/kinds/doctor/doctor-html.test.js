/**
 * The doctor report in a real browser: the diagnoses at the top, a chart of
 * every signal on one time axis with the load window shaded, the figures of
 * a range zoomed on, no network, and every string from the app shown
 * literally with nothing of it run.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { analyzeDoctor } from '../../../lib/kinds/doctor/analyze.js'
import { renderDoctorHtml } from '../../../lib/kinds/doctor/html.js'
import { keyFigures } from '../../../lib/kinds/doctor/terminal.js'
import { reportFile, reportViewerForTests } from '../../helpers/browser.js'
import { makeSeries, recordedSeries } from '../../helpers/doctor-samples.js'
import { HOSTILE } from '../../helpers/flame-fixtures.js'
import { headerFacts, textOf } from '../../helpers/report-page.js'

const viewer = reportViewerForTests({}, (page) => page.addInitScript(() => {
  const violations = /** @type {string[]} */ ([])
  Object.assign(window, { violations })
  document.addEventListener('securitypolicyviolation', (event) => violations.push(event.violatedDirective))
}))

/**
 * A doctor run as renderDoctorHtml takes it.
 * @param {import('../../../lib/kinds/doctor/series.js').DoctorSample[]} samples
 * @param {{ argv?: string[], how?: string, loadWindow?: { startMs: number, endMs: number } | null, load?: any, timeline?: any[] }} [options]
 */
function doctorRun (samples, { argv = ['node', 'app.js'], how = 'stopped by dyno after the load', loadWindow = null, load = null, timeline = [] } = {}) {
  const loadFlags = load ? '-c 10 -d 5 http://127.0.0.1:$PORT/' : null
  /** @type {import('../../../lib/run-folder.js').RunMeta} */
  const meta = {
    schemaVersion: 2,
    kind: 'doctor',
    title: argv.join(' '),
    target: { argv, cwd: '/srv' },
    source: null,
    cwd: '/srv',
    node: '24.1.0',
    v8: '13.6.233.10-node.15',
    startedAt: '2026-11-23T10:00:00.000Z',
    finishedAt: '2026-11-23T10:00:10.000Z',
    options: { sampleIntervalMs: 10, loadFlags, load: load ? 'http://127.0.0.1:$PORT/' : null, onPort: null },
    load,
    loadWindow,
    onPort: null,
    process: null,
    processes: 1,
    threads: 0,
    end: { how, code: null, signal: null, clean: true, stoppedByDyno: true }
  }
  const analysis = analyzeDoctor({ samples, loadWindow, driver: load ? 'load' : null, load, run: { argv, load: loadFlags, onPort: null } })
  return renderDoctorHtml({ meta, analysis, samples, timeline })
}

test('a recorded run: the diagnosis on top, every signal charted on one axis, the load window shaded, the figures of the window', async () => {
  const { samples, loadWindow, load } = recordedSeries('blocking')
  const timeline = [1, 2, 3, 4, 5].map((s) => ({ atMs: loadWindow.startMs + s * 1000, elapsed: s, duration: 5, responses: s * 20, errors: 0, amount: Infinity, lastSecond: 20, lastSecondLatency: { count: 20, p50: 400, p99: 2100 + s, max: 2200 } }))
  const html = doctorRun(samples, { loadWindow, load, timeline })
  const url = reportFile(html)
  /** @type {string[]} */
  const requests = []
  viewer.page.on('request', (request) => requests.push(request.url()))
  await viewer.check(url, async (page) => {
    assert.deepEqual(requests, [url], 'the report asks for nothing but itself')
    assert.equal(await page.getAttribute('#diagnoses article', 'data-kind'), 'event-loop-blocked')
    assert.equal(await textOf(page, '#diagnoses .kind'), 'event-loop-blocked')
    assert.equal(await textOf(page, '#diagnoses .title'), 'Synchronous work holds the event loop')
    assert.match(await textOf(page, '#diagnoses .evidence'), /^event-loop delay p99 \d+ ms \(longest \d+ ms\) in 5 of 5 seconds under load; /)
    assert.match(await textOf(page, '#diagnoses .unless'), /^It would not hold if fewer than 50% of the seconds/)
    assert.equal(await textOf(page, '#diagnoses .next code'), 'dyno flame --load \'-c 10 -d 5 http://127.0.0.1:$PORT/\' -- node app.js')
    const titles = await page.evaluate(() => /** @type {any} */ (window).dynoDoctor.charts.titles())
    assert.deepEqual(titles, ['Event-loop delay', 'Loop utilization and CPU', 'Memory', 'Garbage collection', 'Requests, as the app counts them', 'The load (dyno load, once a second)', 'The load\'s latency (each second)', 'Active handles and requests'])
    assert.equal(await page.locator('.chart canvas').count(), titles.length)
    assert.match(await textOf(page, '#figures-title'), /^Figures under dyno's load$/)
    const figures = await page.$$eval('#figures div', (rows) => rows.map((row) => row.textContent))
    assert.ok(figures.some((f) => /^Loop utilization(9\d|100)%$/.test(String(f))), figures.join(' | '))
    assert.ok(figures.some((f) => /^Load[\d,]+ req\/s, latency p50 [\d,.]+ ms, p99 [\d,.]+ ms, 0 errors$/.test(String(f))), figures.join(' | '))
    // The load window is shaded: on the GC chart, after the load the plot is not the colour it is within it.
    const gcChart = titles.indexOf('Garbage collection')
    const pixel = (/** @type {number} */ at) => page.evaluate(([i, s]) => /** @type {any} */ (window).dynoDoctor.charts.pixel(i, s), [gcChart, at])
    const end = (loadWindow.endMs - samples[0].t + samples[0].dt) / 1000
    assert.notDeepEqual(await pixel(end - 1), await pixel(end + 0.1))
  })
})

test('the figures shown at first are those of the load\'s window the diagnosis judged, not of the whole run with the app\'s start-up', async () => {
  // The app's start-up held its loop for 335 ms, before the load began.
  const { samples, loadWindow, load } = recordedSeries('hello')
  const startup = Math.max(...samples.filter((s) => s.t <= loadWindow.startMs).map((s) => s.delay?.max ?? 0))
  assert.ok(startup > 300)
  const analysis = analyzeDoctor({ samples, loadWindow, driver: 'load', load, run: { argv: ['node', 'app.js'], load: '-d 5 http://127.0.0.1:$PORT/', onPort: null } })
  const summary = /** @type {import('../../../lib/kinds/doctor/summary.js').DoctorSummary} */ (analysis.summary)
  assert.ok(summary.delay.max < startup)
  const axisStart = samples[0].t - samples[0].dt
  const from = ((loadWindow.startMs - axisStart) / 1000).toFixed(1)
  const to = ((loadWindow.endMs - axisStart) / 1000).toFixed(1)
  await viewer.check(reportFile(doctorRun(samples, { loadWindow, load })), async (page) => {
    assert.equal(await textOf(page, '#diagnoses .kind'), 'healthy')
    assert.equal(await textOf(page, '#figures-title'), 'Figures under dyno\'s load')
    const figures = await page.$$eval('#figures div', (rows) => rows.map((row) => row.textContent))
    assert.equal(figures[0], `time${from} s to ${to} s, while dyno's load ran`)
    // The figures the terminal shows after the run and the diagnoses read: the load's window only.
    assert.deepEqual(figures.slice(1), keyFigures(summary).slice(1).map(([term, value]) => term + value))
    assert.ok(!figures.some((f) => String(f).includes(`${Math.round(startup)} ms`)), figures.join(' | '))
    // Zoomed on a range and back: the load's window again.
    await page.evaluate(() => /** @type {any} */ (window).dynoDoctor.zoom(1, 2))
    assert.equal(await textOf(page, '#figures-title'), 'Figures from 1.0 s to 2.0 s')
    await page.click('#reset-zoom')
    assert.equal(await page.$eval('#figures div', (row) => row.textContent), `time${from} s to ${to} s, while dyno's load ran`)
  })
})

test('zooming on a range shows its figures, and the whole run comes back', async () => {
  const { samples, loadWindow, load } = recordedSeries('leaking')
  await viewer.check(reportFile(doctorRun(samples, { loadWindow, load })), async (page) => {
    await page.evaluate(() => /** @type {any} */ (window).dynoDoctor.zoom(2, 3))
    assert.equal(await textOf(page, '#figures-title'), 'Figures from 2.0 s to 3.0 s')
    const time = await page.$eval('#figures div', (row) => row.textContent)
    assert.equal(time, 'time2.0 s to 3.0 s')
    await page.click('#reset-zoom')
    assert.equal(await textOf(page, '#figures-title'), 'Figures under dyno\'s load')
    // Dragging across a chart zooms every chart to that range.
    const box = /** @type {{ x: number, y: number, width: number, height: number }} */ (await page.locator('.chart .u-over').first().boundingBox())
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 })
    await page.mouse.up()
    assert.match(await textOf(page, '#figures-title'), /^Figures from \d+\.\d s to \d+\.\d s$/)
    const ranges = await page.evaluate(() => /** @type {any} */ (window).dynoDoctor.charts.ranges())
    assert.ok(ranges.every((/** @type {number[]} */ r) => r[0] === ranges[0][0] && r[1] === ranges[0][1]), 'every chart shows the same range')
  })
})

test('strings from the app (command, how it ended, resource types, listener names) show literally, and nothing runs', async () => {
  const samples = makeSeries({ seconds: 3, shape: (ms, i) => i % 10 === 0 ? { active: { [HOSTILE.img]: 2, TCPSocketWrap: 5 }, listeners: { process: 3, [HOSTILE.script]: 12 } } : {} })
  const argv = ['node', HOSTILE.closeScript, HOSTILE.comment]
  const html = doctorRun(samples, { argv, how: `crashed: uncaught Error: ${HOSTILE.img} ${HOSTILE.separators}` })
  await viewer.check(reportFile(html), async (page) => {
    assert.equal(await page.getAttribute('body', 'data-ready'), 'true')
    assert.equal(await page.textContent('#title'), argv.join(' '))
    assert.ok((await headerFacts(page)).includes(`app crashed: uncaught Error: ${HOSTILE.img} ${HOSTILE.separators}`))
    assert.ok((await textOf(page, '#diagnoses')).includes(`-- node '${HOSTILE.closeScript.replace(/'/g, '\'\\\'\'')}'`))
    const legend = await page.$$eval('.u-legend .u-label', (labels) => labels.map((label) => label.textContent))
    assert.ok(legend.includes(HOSTILE.img), legend.join(' | '))
    assert.equal(await page.evaluate(() => typeof (/** @type {any} */ (window).__pwned)), 'undefined')
    assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).violations), [])
    assert.equal(await page.evaluate(() => document.scripts.length), 2)
    assert.equal(await page.evaluate(() => document.querySelectorAll('img, [onerror], [onload]').length), 0)
  })
})

test('a run with no samples says so instead of a diagnosis', async () => {
  await viewer.check(reportFile(doctorRun([], { how: 'was killed by SIGKILL (the data holds what was written before)' })), async (page) => {
    assert.equal(await textOf(page, '#diagnoses'), 'No diagnosis: the app wrote no samples: it ended before the collector could take one.')
    assert.ok((await headerFacts(page)).includes('app was killed by SIGKILL (the data holds what was written before)'))
  })
})

// Last: the page keeps the language it is given here for the tests after it.
test('a browser whose language Intl refuses (LANG=C gives en-US@posix) still draws the charts', async () => {
  await viewer.page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'language', { get: () => 'en-US@posix', configurable: true }))
  const { samples, loadWindow, load } = recordedSeries('blocking')
  await viewer.check(reportFile(doctorRun(samples, { loadWindow, load })), async (page) => {
    assert.equal(await page.getAttribute('body', 'data-ready'), 'true')
    assert.ok(await page.locator('.chart canvas').count() > 0)
    assert.equal(await page.evaluate(() => navigator.language), 'en-US')
  })
})
