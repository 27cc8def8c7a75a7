import assert from 'node:assert/strict'
import { test } from 'node:test'
import { analyzeDoctor } from '../../../lib/kinds/doctor/analyze.js'
import { shellWord } from '../../../lib/kinds/doctor/next.js'
import { THRESHOLDS } from '../../../lib/kinds/doctor/rules.js'
import { keyFigures } from '../../../lib/kinds/doctor/terminal.js'
import { findWindow } from '../../../lib/kinds/doctor/series.js'
import { makeSeries, recordedSeries } from '../../helpers/doctor-samples.js'

const LOAD = '-c 10 -d 5 http://127.0.0.1:$PORT/'

/** @param {string} name */
function analyzeRecorded (name) {
  const { samples, loadWindow, load, fullGcs } = recordedSeries(name)
  return analyzeDoctor({ samples, loadWindow, driver: 'load', load, fullGcs, run: { argv: ['node', `examples/doctor/${name.replace(/-.*/, '')}.js`], load: LOAD, onPort: null } })
}

/**
 * @param {import('../../../lib/kinds/doctor/series.js').DoctorSample[]} samples
 * @param {{ loadWindow?: { startMs: number, endMs: number } | null }} [options]
 */
function analyzeMade (samples, { loadWindow = null } = {}) {
  return analyzeDoctor({ samples, loadWindow, driver: loadWindow ? 'on-port' : null, load: null, run: { argv: ['node', 'app.js'], load: null, onPort: loadWindow ? 'wrk http://127.0.0.1:$PORT/' : null } })
}

const kinds = (/** @type {ReturnType<typeof analyzeDoctor>} */ analysis) => analysis.diagnoses.map((d) => d.kind)

/** A made-up sample's GC: one full GC (mark-compact) every 100th sample, a second at 10 ms a sample. */
const fullGcEverySecond = (/** @type {number} */ i) => i % 100 === 50 ? { gc: { markCompact: [1, 4], max: 4 } } : {}

test('each recorded example gets its own kind, and the plain hello server is healthy and nothing else', () => {
  assert.deepEqual(kinds(analyzeRecorded('hello')), ['healthy'])
  assert.deepEqual(kinds(analyzeRecorded('blocking')), ['event-loop-blocked'])
  assert.deepEqual(kinds(analyzeRecorded('allocating')), ['gc-pressure'])
  assert.deepEqual(kinds(analyzeRecorded('leaking')), ['memory-growth'])
  assert.deepEqual(kinds(analyzeRecorded('waiting')), ['io-wait'])
})

test('requests that each hold tens of MB for a while swing the heap: no growth taken from that, nor from rss', () => {
  // Two runs of allocating.js where, before the swing and rss rules, the heap's lows rose by 19 MB
  // (Node 20) and rss outside the heap by 90 MB (Node 22) in 5 s of load.
  assert.deepEqual(kinds(analyzeRecorded('allocating-node20')), ['gc-pressure'])
  assert.deepEqual(kinds(analyzeRecorded('allocating-node22')), ['gc-pressure'])
})

test('heap lows that climb on garbage no full GC has reclaimed yet are not growth', () => {
  // Two runs of allocating.js on Node 24 beside another busy process. In the first, no full GC ran for
  // the 4 s after warm-up and the lows climbed from 46 MB to 104 MB; in the second, the last full GC left
  // 57 MB or more and the lows rose by 46 MB, but the highs stayed put (122 MB to 131 MB).
  assert.deepEqual(kinds(analyzeRecorded('allocating-no-full-gc')), ['gc-pressure'])
  assert.deepEqual(kinds(analyzeRecorded('allocating-highs-flat')), ['gc-pressure'])
})

test('with a full GC after the load, what it left decides, not the full GCs V8 ran on its own', () => {
  const { samples, loadWindow, load } = recordedSeries('leaking')
  const run = { argv: ['node', 'examples/doctor/leaking.js'], load: LOAD, onPort: null }
  const endMs = loadWindow.endMs
  const after = (/** @type {number} */ heapUsed) => ({ before: { t: loadWindow.startMs - 100, heapUsed: 4e6, external: 2e6 }, after: { t: endMs + 100, heapUsed, external: 2e6 } })
  // The leak's lows rose from about 6 MB; a full GC after the load that left what the one before it
  // did (4e6 bytes) would have shown garbage, no growth. One that left 15 MB confirms it.
  assert.deepEqual(kinds(analyzeDoctor({ samples, loadWindow, driver: 'load', load, fullGcs: after(4e6), run })), ['healthy'])
  const confirmed = analyzeDoctor({ samples, loadWindow, driver: 'load', load, fullGcs: after(15e6), run })
  assert.deepEqual(kinds(confirmed), ['memory-growth'])
  assert.match(confirmed.diagnoses[0].evidence, /, and a full GC after the load left 15 MB \(4 MB in one before it\)$/)
  assert.deepEqual(confirmed.summary?.memory.heapAfterFullGc, { beforeLoad: 4e6, afterLoad: 15e6, inFlightAfter: -1 })
  // 15 s of leaking.js on Node 24, recorded with dyno's full GCs: 7.07 MB before the load, 150 MB after.
  const [long] = analyzeRecorded('leaking-long').diagnoses
  assert.equal(long.kind, 'memory-growth')
  assert.match(long.evidence, /over 12 s under load .*, and a full GC after the load left 150 MB \(7\.07 MB in one before it\)$/)
})

test('a full GC after the load above the one before it, but not above what the app held early in the load, is no growth (a pool filled in the first seconds)', () => {
  const { samples, loadWindow, load } = recordedSeries('leaking')
  const run = { argv: ['node', 'examples/doctor/leaking.js'], load: LOAD, onPort: null }
  // 1 MB before the load and 5 MB after: 4 MB more, but the lows of the first third were already about 6 MB.
  const fullGcs = { before: { t: loadWindow.startMs - 100, heapUsed: 1e6, external: 2e6 }, after: { t: loadWindow.endMs + 100, heapUsed: 5e6, external: 2e6 } }
  assert.deepEqual(kinds(analyzeDoctor({ samples, loadWindow, driver: 'load', load, fullGcs, run })), ['healthy'])
})

test('buffers that each request holds for a few turns swing external memory: no growth; buffers kept for good are', () => {
  // test/fixtures/apps/buffer-churn.cjs: external memory swings by 30 MB within a second, and its lows
  // moved by 6.5 MB from the first third to the last, which was growth before external memory had a swing.
  assert.deepEqual(kinds(analyzeRecorded('buffer-churn')), ['healthy'])
  const [leak] = analyzeRecorded('buffer-leak').diagnoses
  assert.equal(leak.kind, 'memory-growth')
  // Each kept buffer's object stays on the heap too.
  assert.match(leak.evidence, /; external memory rose from [\d.]+ MB to [\d.]+ MB over \d s under load \([\d.]+ [MG]B a minute\), was still rising at the end, and it stayed at [\d.]+ MB or more through the last full GC$/)
})

test('each diagnosis says the figures behind it, what would have made it not hold, and the next command ready to paste', () => {
  const [blocked] = analyzeRecorded('blocking').diagnoses
  assert.match(blocked.evidence, /^event-loop delay p99 \d+ ms \(longest \d+ ms\) in 5 of 5 seconds under load; turns of 20 ms or longer held the loop \d+% of the time, GC aside; loop busy 100%, CPU \d+%; each request held the loop [\d.]+ ms; the load waited \d+ ms at p99$/)
  assert.match(blocked.unless, /^fewer than 50% of the seconds under load had turns of 20 ms or longer/)
  assert.equal(blocked.next, `dyno flame --load '${LOAD}' -- node examples/doctor/blocking.js`)
  assert.equal(blocked.figures.blockedSeconds, 5)

  const [gc] = analyzeRecorded('allocating').diagnoses
  assert.match(gc.evidence, /^GC took \d+% of the time under load \(15% or more in \d of 5 seconds\); longest pause \d+ ms; \d+ scavenge/)
  assert.equal(gc.next, `dyno heap --sampling --load '${LOAD}' -- node examples/doctor/allocating.js`)

  const [growth] = analyzeRecorded('leaking').diagnoses
  assert.match(growth.evidence, /^heap used after GC rose from [\d.]+ MB to [\d.]+ MB over \d s under load \([\d.]+ MB a minute\), was still rising at the end, and it stayed at [\d.]+ MB or more through the last full GC$/)
  assert.equal(growth.next, `dyno heap --load '${LOAD}' -- node examples/doctor/leaking.js`)

  const [io] = analyzeRecorded('waiting').diagnoses
  assert.match(io.evidence, /^requests took 6\d\.\d ms at the median \(as the load measured it\) while the event loop was busy \d+% of the time/)
  assert.equal(io.next, `dyno async --load '${LOAD}' -- node examples/doctor/waiting.js`)

  const [fine] = analyzeRecorded('hello').diagnoses
  assert.match(fine.evidence, /requests a second; latency p50/)
  assert.match(fine.unless, /^another rule had held/)
})

test('a fast server saturated by the load is healthy, and the busy CPU is said to be no problem', () => {
  const samples = makeSeries({ seconds: 6, shape: () => ({ elu: 1, cpu: { user: 9, system: 1 }, delay: { min: 0.5, p50: 1, p99: 2, max: 2.5, n: 5 }, http: { started: 200, finished: 200, inFlight: 50 } }) })
  const analysis = analyzeMade(samples)
  assert.deepEqual(kinds(analysis), ['healthy'])
  assert.match(analysis.diagnoses[0].evidence, /The CPU was busy, and that is fine: the loop turned within 2\.5 ms \(p99\)/)
  assert.equal(analysis.diagnoses[0].next, 'dyno flame -- node app.js')
})

test('a load that got no answer has no latency: not 0 ms, which would read as fast', () => {
  const { samples, loadWindow, load, fullGcs } = recordedSeries('blocking')
  const unanswered = { ...load, requests: { ...load.requests, completed: 0 } }
  const analysis = analyzeDoctor({ samples, loadWindow, driver: 'load', load: unanswered, fullGcs, run: { argv: ['node', 'app.js'], load: LOAD, onPort: null } })
  assert.equal(analysis.summary?.load?.latencyP50, null)
  assert.equal(analysis.summary?.load?.latencyP99, null)
  assert.match(analysis.diagnoses[0].evidence, /; the load got no answer$/)
  const row = keyFigures(/** @type {NonNullable<typeof analysis.summary>} */ (analysis.summary)).find(([name]) => name === 'Load')
  assert.match(row?.[1] ?? '', /^[\d,]+ req\/s, no request answered, [\d,]+ errors$/)
})

test('a loop stuck for good, known only from the worker\'s lines, is event-loop-blocked', () => {
  const start = 1_700_000_000_000
  const samples = makeSeries({ seconds: 1, startMs: start })
  // The main thread's last line, then one line of the worker's every 50 ms for 4 s.
  for (let i = 1; i <= 80; i++) samples.push({ t: start + 1000 + i * 50, dt: 50, blocked: true, delay: { max: i * 50 - 10 }, elu: 1, cpu: { user: 50, system: 0 }, mem: { rss: 60e6 } })
  const analysis = analyzeMade(samples)
  assert.equal(analysis.window?.source, 'requests', 'the window runs from the first request to the end of the stuck loop')
  assert.deepEqual(kinds(analysis), ['event-loop-blocked'])
  assert.equal(analysis.summary?.blockedSamples, 80)
  assert.match(analysis.diagnoses[0].evidence, /longest 3990 ms/)
})

test('without a load, the window is where the app served requests; with --on-port, the one dyno knows', () => {
  const start = 1_700_000_000_000
  // Idle for 2 s, serving for 3 s, idle for 2 s.
  const samples = makeSeries({ seconds: 7, startMs: start, shape: (ms) => ({ http: ms > 2000 && ms <= 5000 ? { started: 5, finished: 5, inFlight: 1 } : { started: 0, finished: 0, inFlight: 0 } }) })
  const window = findWindow(samples, null, null)
  assert.deepEqual(window, { startMs: start + 2000, endMs: start + 5000, source: 'requests' })
  assert.deepEqual(findWindow(samples, { startMs: start + 1000, endMs: start + 6000 }, 'on-port'), { startMs: start + 1000, endMs: start + 6000, source: 'on-port' })
  const analysis = analyzeMade(samples, { loadWindow: { startMs: start + 1000, endMs: start + 6000 } })
  assert.equal(analysis.diagnoses[0].next, 'dyno flame --on-port \'wrk http://127.0.0.1:$PORT/\' -- node app.js')
  // No request at all: the whole run, judged "while it ran".
  const script = makeSeries({ seconds: 3, startMs: start, shape: () => ({ http: { started: 0, finished: 0, inFlight: 0 }, gc: { scavenge: [10, 4], max: 0.5 } }) })
  const run = analyzeMade(script)
  assert.equal(run.window?.source, 'run')
  assert.deepEqual(kinds(run), ['gc-pressure'])
  assert.match(run.diagnoses[0].evidence, /of the time while it ran/)
})

test('memory that rises while the app warms up, then holds, is not growth; memory that keeps rising is', () => {
  const warmUp = makeSeries({ seconds: 10, shape: (ms, i) => ({ mem: { heapTotal: 40e6, heapUsed: 8e6 + Math.min(ms, 1500) * 4000 + (i % 50) * 2e5 } }) })
  assert.deepEqual(kinds(analyzeMade(warmUp)), ['healthy'])
  const leak = makeSeries({ seconds: 10, shape: (ms, i) => ({ mem: { heapTotal: 60e6, heapUsed: 8e6 + ms * 2000 + (i % 50) * 2e5 }, ...fullGcEverySecond(i) }) })
  const analysis = analyzeMade(leak)
  assert.deepEqual(kinds(analysis), ['memory-growth'])
  assert.equal(analysis.diagnoses[0].next, 'dyno heap -- node app.js')
  assert.match(analysis.diagnoses[0].evidence, /stayed at [\d.]+ MB or more through the last full GC$/)
  // The same rise with no full GC at all: garbage may be all of it.
  const noFullGc = makeSeries({ seconds: 10, shape: (ms, i) => ({ mem: { heapTotal: 60e6, heapUsed: 8e6 + ms * 2000 + (i % 50) * 2e5 } }) })
  assert.deepEqual(kinds(analyzeMade(noFullGc)), ['healthy'])
  // Too short to judge growth at all.
  const short = makeSeries({ seconds: THRESHOLDS.growthMinSeconds - 1, shape: (ms) => ({ mem: { heapUsed: 8e6 + ms * 10_000 } }) })
  assert.deepEqual(kinds(analyzeMade(short)), ['healthy'])
  // External memory (Buffers) that keeps rising counts too.
  const buffers = makeSeries({ seconds: 10, shape: (ms, i) => ({ mem: { heapUsed: 8e6, ...(i % 10 === 0 ? { rss: 90e6, external: 2e6 + ms * 1000, arrayBuffers: 0 } : {}) }, ...fullGcEverySecond(i) }) })
  assert.match(analyzeMade(buffers).diagnoses[0].evidence, /^external memory rose/)
})

test('rss that rises with the heap V8 grows under pressure is not growth; rss that rises outside the heap is', () => {
  // The heap's size (and rss with it) climbs by 100 MB a second; the heap after GC and the memory outside it stay put.
  // Then memory outside the heap climbs as fast.
  const heapGrows = makeSeries({ seconds: 8, shape: (ms, i) => ({ mem: { heapUsed: 8e6 + (i % 50) * 2e5, heapTotal: 20e6 + ms * 100_000, ...(i % 10 === 0 ? { rss: 60e6 + ms * 100_000, external: 2e6, arrayBuffers: 0 } : {}) } }) })
  assert.deepEqual(kinds(analyzeMade(heapGrows)), ['healthy'])
  const nativeGrows = makeSeries({ seconds: 8, shape: (ms, i) => ({ mem: { heapUsed: 8e6 + (i % 50) * 2e5, heapTotal: 20e6, ...(i % 10 === 0 ? { rss: 60e6 + ms * 100_000, external: 2e6, arrayBuffers: 0 } : {}) } }) })
  const analysis = analyzeMade(nativeGrows)
  assert.deepEqual(kinds(analysis), ['memory-growth'])
  assert.match(analysis.diagnoses[0].evidence, /^rss outside the V8 heap rose from/)
})

test('one GC pause of 250 ms is gc-pressure on its own; GC time inside long turns does not count as blocking', () => {
  const pause = makeSeries({ seconds: 5, shape: (ms) => ms === 2500 ? { gc: { markCompact: [1, 300], max: 300 }, delay: { min: 0, p50: 0, p99: 300, max: 300, n: 1 } } : {} })
  assert.deepEqual(kinds(analyzeMade(pause)), ['gc-pressure'])
  // Every turn long, but GC in all of it: the loop is held by the collector, not the code.
  const collector = makeSeries({ seconds: 5, intervalMs: 40, shape: () => ({ elu: 1, delay: { min: 30, p50: 35, p99: 40, max: 40, n: 1 }, gc: { scavenge: [2, 38], max: 20 } }) })
  assert.deepEqual(kinds(analyzeMade(collector)), ['gc-pressure'])
})

test('io-wait without a load: the app\'s own request counts give the latency', () => {
  // 10 requests in flight, 150 finished a second: about 67 ms each.
  const samples = makeSeries({ seconds: 5, shape: (ms, i) => ({ elu: 0.05, cpu: { user: 0.5, system: 0.2 }, http: { started: i % 2 ? 2 : 1, finished: i % 2 ? 2 : 1, inFlight: 10 } }) })
  const analysis = analyzeMade(samples)
  assert.deepEqual(kinds(analysis), ['io-wait'])
  assert.match(analysis.diagnoses[0].evidence, /^requests took 6\d\.\d ms at the median \(as the app's own request counts give it\)/)
})

test('no samples, or less than a second under load: no diagnosis, and a note saying why', () => {
  const none = analyzeMade([])
  assert.deepEqual(none.diagnoses, [])
  assert.match(/** @type {string} */ (none.note), /wrote no samples/)
  // A process joined with --pid while its loop was held took none, and goes on: it is blocked.
  const joined = analyzeDoctor({ samples: [], loadWindow: null, driver: null, load: null, run: { argv: [], pid: 4711, load: null, onPort: null } })
  assert.equal(joined.note, 'pid 4711 took no sample while dyno was in: its event loop did not turn, so it is blocked; dyno flame --pid 4711 shows where it is held')
  const brief = analyzeMade(makeSeries({ seconds: 0.3 }))
  assert.deepEqual(brief.diagnoses, [])
  assert.match(/** @type {string} */ (brief.note), /too little to judge/)
})

test('the next command quotes what the shell would otherwise read', () => {
  assert.equal(shellWord('node'), 'node')
  assert.equal(shellWord('./app.js'), './app.js')
  assert.equal(shellWord('-c 10 http://127.0.0.1:$PORT/'), '\'-c 10 http://127.0.0.1:$PORT/\'')
  assert.equal(shellWord('it\'s'), '\'it\'\\\'\'s\'')
  assert.equal(shellWord(''), '\'\'')
})
