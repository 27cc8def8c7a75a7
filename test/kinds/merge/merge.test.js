import assert from 'node:assert/strict'
import { writeFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { LatencyRecorder } from '../../../lib/load/histogram.js'
import { resolveOptions } from '../../../lib/load/options.js'
import { summarize } from '../../../lib/load/summary.js'
import { mergeResults, notOneLoad, partWarnings } from '../../../lib/kinds/merge/merge.js'
import { runDyno } from '../../helpers/cli.js'
import { seededRandom } from '../../helpers/random.js'
import { startHttpServer } from '../../helpers/servers.js'

const URL = 'http://127.0.0.1:3000/'

/**
 * A generator's result from latencies it measured.
 * @param {number[]} latenciesUs @param {{ start?: number, index?: number, count?: number, url?: string, cpuMs?: number }} [at]
 */
function result (latenciesUs, at = {}) {
  const latency = new LatencyRecorder()
  for (const us of latenciesUs) latency.record(us)
  const raw = {
    startedAt: at.start ?? 1_700_000_000_000,
    durationMs: 2000,
    sent: latency.total,
    responses: latency.total,
    pending: 0,
    bytes: latency.total * 100,
    dropped: 0,
    peakConnections: 2,
    statusCodes: { 200: latency.total },
    errors: { timeout: 0, reset: 0, refused: 0, closed: 0, invalid: 0, tls: 0, goaway: 0, stream: 0, other: 0 },
    latency,
    perSecond: { responses: [Math.ceil(latency.total / 2), Math.floor(latency.total / 2)], bytes: [0, 0] },
    targetRefusing: false,
    failure: null
  }
  const options = resolveOptions({ url: at.url ?? URL, connections: 6, segment: { index: at.index ?? 0, count: at.count ?? 1 } })
  return summarize(raw, options, { interrupted: false, cpuMs: at.cpuMs ?? 100, host: 'gen', pid: 1, rawWrite: true })
}

test('the merged percentiles are those of one histogram of every request', () => {
  const random = seededRandom(22)
  const all = Array.from({ length: 30_000 }, () => Math.round(200 + 50_000 * random.uniform() ** 6))
  const parts = [[], [], []].map(() => /** @type {number[]} */ ([]))
  for (const us of all) parts[random.next32() % 3].push(us)
  const merged = mergeResults(parts.map((latencies, index) => ({ name: `g${index}`, result: result(latencies, { index, count: 3 }) })))
  const whole = result(all)
  assert.deepEqual(merged.latency.percentiles, whole.latency.percentiles)
  assert.equal(merged.latency.max, whole.latency.max)
  assert.equal(merged.latency.min, whole.latency.min)
  assert.equal(merged.latency.mean, whole.latency.mean)
  assert.equal(merged.requests.completed, 30_000)
  assert.deepEqual(merged.warnings, [])
})

test('per-second figures add up on the wall clock: a generator that started a second later adds into later seconds', () => {
  const a = result(Array(100).fill(1000), { start: 1_700_000_000_000, index: 0, count: 2 })
  const b = result(Array(60).fill(1000), { start: 1_700_000_001_000, index: 1, count: 2 })
  const merged = mergeResults([{ name: 'a', result: a }, { name: 'b', result: b }])
  assert.deepEqual(merged.requests.perSecond.samples, [50, 80, 30])
  assert.equal(merged.duration, 3)
  assert.deepEqual(merged.generators.map((g) => g.startOffsetMs), [0, 1000])
})

test('what makes a merge less than exact is said, one line each', () => {
  const part = (/** @type {number} */ index, /** @type {number} */ count, /** @type {object} */ at = {}) => ({ name: `g${index}of${count}`, result: result([1000], { index, count, ...at }) })
  const start = 1_700_000_000_000
  assert.match(partWarnings([part(0, 3), part(2, 3)], start).join('\n'), /segment 1\/3 is missing: the figures are those of 2 of 3 shares/)
  assert.match(partWarnings([part(0, 2), part(0, 2), part(1, 2)], start).join('\n'), /segment 0\/2 is there 2 times/)
  assert.match(partWarnings([part(0, 2), part(1, 3)], start).join('\n'), /different splits/)
  assert.match(partWarnings([part(0, 2), part(1, 2, { start: start + 2500 })], start).join('\n'), /started 2\.5 s apart/)
  assert.match(partWarnings([part(0, 2), part(1, 2, { cpuMs: 1950 })], start).join('\n'), /g1of2's load thread was on the CPU 98% of the time on gen: that generator set the pace/)
  const stopped = part(1, 2)
  stopped.result.interrupted = true
  assert.match(partWarnings([part(0, 2), stopped], start).join('\n'), /g1of2 ended early \(stopped before its end\): its share of the load is short/)
  assert.deepEqual(notOneLoad([part(0, 2), part(1, 2, { url: 'http://127.0.0.1:3001/' })]), { differs: 'url', values: { name: 'g1of2', url: 'http://127.0.0.1:3001/', first: 'g0of2', firstUrl: URL } })
})

test('three generators run as the pods would: the server saw exactly the requests the merge counts', async (t) => {
  const server = await startHttpServer((req, res) => res.end('ok'))
  const dir = await mkdtemp(join(tmpdir(), 'dyno-merge-'))
  t.after(async () => { await server.close(); await rm(dir, { recursive: true, force: true }) })
  const startAt = new Date(Date.now() + 1500).toISOString()
  const runs = await Promise.all([0, 1, 2].map((i) => runDyno(['load', '--segment', `${i}/3`, '--start-at', startAt, '-c', '6', '-a', '901', '--json', server.url])))
  const files = []
  for (const [i, run] of runs.entries()) {
    assert.equal(run.code, 0, run.stderr)
    const parsed = JSON.parse(run.stdout)
    assert.deepEqual([parsed.segment.index, parsed.segment.amount, parsed.startAt], [i, [301, 300, 300][i], startAt])
    assert.ok(Date.parse(parsed.startedAt) >= Date.parse(startAt), 'it waited for the common start')
    const file = join(dir, `gen-${i}.log`)
    // As kubectl logs gives it: the document among other lines.
    await writeFile(file, `starting generator ${i}\n${run.stdout}\n`)
    files.push(file)
  }
  const merged = await runDyno(['merge', '--json', ...files])
  assert.equal(merged.code, 0, merged.stderr)
  const doc = JSON.parse(merged.stdout)
  assert.equal(doc.requests.completed, 901)
  assert.equal(server.stats.requests, 901)
  assert.equal(doc.generators.length, 3)
  const text = await runDyno(['merge', ...files])
  assert.match(text.stdout, /901 requests in/)
  assert.match(text.stdout, /3 generators/)
})

test('bad input to merge and to the segment flags: one line, exit 2', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'dyno-merge-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  const good = JSON.stringify(result([1000]), null, 2)
  await writeFile(join(dir, 'good.json'), good)
  await writeFile(join(dir, 'cut.json'), good.slice(0, 400))
  await writeFile(join(dir, 'other.json'), JSON.stringify(result([1000], { url: 'http://127.0.0.1:4000/' }), null, 2))
  await writeFile(join(dir, 'not.json'), JSON.stringify({ schemaVersion: 1, hello: 'world' }))
  const cases = [
    [['merge', 'cut.json'], /cut\.json holds no complete JSON document/],
    [['merge', 'good.json', 'other.json'], /other\.json loaded http:\/\/127\.0\.0\.1:4000\/, good\.json http:\/\/127\.0\.0\.1:3000\/: merge the results of one load only/],
    [['merge', 'not.json'], /not\.json is not a result of dyno load --json: it has no url or start time/],
    [['merge', 'missing.json'], /cannot read missing\.json/],
    [['merge'], /no result to merge/],
    [['load', '--segment', '3/3', URL], /--segment 3\/3 is not one: give i\/n with i counted from 0/],
    [['load', '--segment', '3/4', '-c', '3', URL], /segment 3\/4 has nothing to do/],
    [['load', '--start-at', '2026-11-26T10:00:00', URL], /--start-at 2026-11-26T10:00:00 is not a time dyno reads: give ISO 8601 with its zone/],
    [['load', '--start-at', 'tomorrow', URL], /is not a time dyno reads/]
  ]
  for (const [args, message] of /** @type {[string[], RegExp][]} */ (cases)) {
    const run = await runDyno(args, { cwd: dir })
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`)
    assert.match(run.stderr, message)
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr)
  }
})

test('generators whose clocks are apart are told from the server\'s Date headers', async (t) => {
  // The server stands in for two clocks: it tells the generator that asks a clock 5 s ahead.
  const server = await startHttpServer((req, res) => {
    const skew = Number(req.headers['x-skew'] ?? 0)
    res.setHeader('date', new Date(Date.now() + skew).toUTCString())
    res.end('ok')
  })
  const dir = await mkdtemp(join(tmpdir(), 'dyno-merge-'))
  t.after(async () => { await server.close(); await rm(dir, { recursive: true, force: true }) })
  const files = []
  for (const [i, extra] of /** @type {[number, string[]][]} */ ([[0, []], [1, ['-H', 'x-skew: 5000']]])) {
    const run = await runDyno(['load', '--segment', `${i}/2`, '-c', '2', '-a', '200', '--json', ...extra, server.url])
    assert.equal(run.code, 0, run.stderr)
    const clock = JSON.parse(run.stdout).serverClock
    assert.ok(clock && clock.low <= clock.high, `bounds of the server's clock: ${JSON.stringify(clock)}`)
    files.push(join(dir, `gen-${i}.json`))
    await writeFile(files[i], run.stdout)
  }
  const merged = await runDyno(['merge', ...files])
  assert.equal(merged.code, 0, merged.stderr)
  assert.match(merged.stderr, /the clocks of .*gen-1\.json and .*gen-0\.json are at least [345]\.\d s apart/)
})
