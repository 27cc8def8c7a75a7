/**
 * dyno async on the examples, with real servers under real load: each gets
 * its finding at the right file and line, with a saving no less than the
 * one its known waits give (see notBelow; how little above it is the timing
 * tier's, test/timing/async.test.js); the fixed versions get none. Every request is
 * traced (--sample 1), one connection at a time, so the waits are the
 * examples' own (the fan-out's queue is its request's alone).
 */
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { DEFAULT_SAMPLE, MIN_TRACED } from '../../../lib/kinds/async/command.js'
import { runDyno } from '../../helpers/cli.js'
import { EXPECTED, FIXED, dynoAsync, examplePath, followsFromRequests, lineOf, notBelow } from '../../helpers/async.js'

const load = (/** @type {number} */ requests) => ['--load', `-c 1 -a ${requests} http://127.0.0.1:$PORT/`]

for (const [example, expected] of Object.entries(EXPECTED)) {
  test(`${example}: ${expected.kind} at its line, with the saving its waits give`, async () => {
    const run = await dynoAsync(['--sample', '1', '--json', ...load(5), '--', process.execPath, examplePath(example)])
    assert.equal(run.code, 0, run.stderr)
    const result = run.json
    assert.equal(result.schemaVersion, 1)
    assert.equal(result.requests.traced, 5)
    assert.equal(result.findings.length, 1, JSON.stringify(result.findings))
    const [finding] = result.findings
    assert.equal(finding.kind, expected.kind)
    assert.equal(finding.location.file, examplePath(example))
    assert.equal(finding.location.line, expected.line())
    assert.ok(notBelow(finding.savingMs, expected.savingMs), `saving ${finding.savingMs} ms, true ${expected.savingMs} ms`)
    assert.ok(notBelow(finding.perRequestMs, expected.costMs), `cost ${finding.perRequestMs} ms, true ${expected.costMs} ms`)
    assert.ok(followsFromRequests(result, finding), `saving ${finding.savingMs} ms of a cost of ${finding.perRequestMs} ms; the slowest request took ${result.latency.maxMs} ms`)
    // The same document is in the run folder.
    assert.deepEqual(JSON.parse(readFileSync(join(/** @type {string} */ (run.folder), 'async.json'), 'utf8')).findings, result.findings)
  })
}

// Serial awaits and awaits in a loop are found from how the awaits are chained, whatever the times.
// An unbounded fan-out is found from waits that grow from the first to the last, as a queue makes
// them; timers that a busy machine fires late, some later than others, can look the same. So here a
// fan-out, if any, must show the growing waits it was found from; that the fixed versions get no
// finding at all is the timing tier's (test/timing/async.test.js).
for (const example of FIXED) {
  test(`${example}, the fixed version: no serial awaits, no await in a loop`, async () => {
    const run = await dynoAsync(['--sample', '1', '--json', ...load(5), '--', process.execPath, examplePath(example)])
    assert.equal(run.code, 0, run.stderr)
    const result = run.json
    assert.equal(result.requests.finished, 5)
    assert.deepEqual(result.findings.filter((/** @type {any} */ f) => f.kind !== 'unbounded-fan-out'), [])
    for (const fanOut of result.findings) assert.ok(fanOut.detail.lastMs > fanOut.detail.firstMs, JSON.stringify(fanOut.detail))
  })
}

test('the terminal: the load, the findings with their place and saving, the typical request\'s path, the report', async () => {
  const run = await dynoAsync(['--sample', '1', ...load(4), '--', process.execPath, examplePath('chain-serial.cjs')])
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /│ Latency │/)
  assert.match(run.stdout, /4 requests, 4 traced \(1 in 1, at most 50 a second\); typical [\d.]+ ms, slowest [\d.]+ ms\./)
  assert.match(run.stdout, /Findings, by time per request\n {2}serial-awaits {2}\S*examples\/async\/chain-serial\.cjs:10 {2}[\d.]+ ms a request, saves ~[\d.]+ ms\n {4}readPage awaits 3 operations one after another/)
  assert.match(run.stdout, /Whether they are independent is your call\./)
  assert.match(run.stdout, /Typical request: GET \/, [\d.]+ ms; its critical path\n(.*timer +made at .*backend\.cjs:\d+ \(wait\), awaited at .*chain-serial\.cjs:1[012] \(readPage\)\n){3}/)
  assert.match(run.stdout, /The app stopped by dyno after the load\./)
  assert.match(run.stdout, /Report: file:\/\/.*\/report\.html/)
  const folder = /** @type {string} */ (run.folder)
  for (const file of ['meta.json', 'async.jsonl', 'async.json', 'report.html']) assert.ok(existsSync(join(folder, file)), file)
  const meta = JSON.parse(readFileSync(join(folder, 'meta.json'), 'utf8'))
  assert.equal(meta.kind, 'async')
  assert.equal(meta.options.sample, 1)

  // dyno report renders the folder again, to the same findings.
  const again = await runDyno(['report', folder])
  assert.equal(again.code, 0, again.stderr)
  assert.match(again.stdout, /serial-awaits {2}\S*chain-serial\.cjs:10/)
})

test('by default the first MIN_TRACED requests are traced, then one in DEFAULT_SAMPLE while the hooks stay within that share', async () => {
  const run = await dynoAsync(['--json', ...load(3 * DEFAULT_SAMPLE), '--', process.execPath, examplePath('loop-all.js')])
  assert.equal(run.code, 0, run.stderr)
  const result = run.json
  assert.equal(result.requests.sample, DEFAULT_SAMPLE)
  assert.equal(result.requests.received, 3 * DEFAULT_SAMPLE)
  // One connection: the first MIN_TRACED ran under the hooks, more than 300 requests' share of one in 100.
  assert.equal(result.requests.traced, MIN_TRACED)
  assert.equal(result.requests.tooFew, false)
  assert.deepEqual(result.findings, [])
})

test('at ten connections, a load of 300 requests traces twenty or more to the end, and says nothing of too few', async () => {
  const run = await dynoAsync(['--json', '--load', '-c 10 -a 300 http://127.0.0.1:$PORT/', '--', process.execPath, examplePath('loop-serial.js')])
  assert.equal(run.code, 0, run.stderr)
  assert.equal(run.json.requests.received, 300)
  assert.ok(run.json.requests.finished >= 20, `${run.json.requests.finished} traced requests finished`)
  assert.equal(run.json.requests.tooFew, false)
  assert.deepEqual(run.json.findings.map((/** @type {{ kind: string }} */ f) => f.kind), ['await-in-loop'])
})

test('too few traced: the terminal and the JSON say so instead of "no finding"', async () => {
  const run = await dynoAsync(['--max-rate', '1', ...load(40), '--', process.execPath, examplePath('loop-all.js')])
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /Too few requests traced to judge: \d+ finished of the 40 the app answered; a longer load, or a higher --max-rate, traces more/)
  assert.doesNotMatch(run.stdout, /No serial awaits/)
  const saved = JSON.parse(readFileSync(join(/** @type {string} */ (run.folder), 'async.json'), 'utf8'))
  assert.equal(saved.requests.tooFew, true)
})

test('unneeded-async: a function declared async that never awaits, called 500 times a request, at its line, with its cost measured here', async () => {
  const app = examplePath('unneeded-async.js')
  const run = await dynoAsync(['--json', ...load(30), '--', process.execPath, app])
  assert.equal(run.code, 0, run.stderr)
  const found = run.json.findings.filter((/** @type {any} */ f) => f.kind === 'unneeded-async')
  assert.equal(found.length, 1, JSON.stringify(run.json.findings))
  assert.equal(found[0].location.line, lineOf(app, 'async function price'))
  assert.equal(found[0].location.function, 'price')
  assert.equal(found[0].detail.calls, 500)
  assert.equal(found[0].detail.awaitsAtHand, false)
  assert.ok(found[0].detail.eachUs > 0)
  assert.ok(found[0].perRequestMs > 0)
  // total() awaits too, and is not named: it awaits promises.
  assert.equal(run.json.findings.filter((/** @type {any} */ f) => f.location.line === lineOf(app, 'async function total')).length, 0)
})

test('unneeded-async: a function declared async that awaits only a value at hand is named too, and said so', async () => {
  const app = fileURLToPath(new URL('../../fixtures/apps/await-at-hand.js', import.meta.url))
  const run = await dynoAsync(['--json', ...load(30), '--', process.execPath, app])
  assert.equal(run.code, 0, run.stderr)
  const found = run.json.findings.filter((/** @type {any} */ f) => f.kind === 'unneeded-async')
  assert.equal(found.length, 1, JSON.stringify(run.json.findings))
  assert.equal(found[0].location.line, lineOf(app, 'async function tax'))
  assert.equal(found[0].detail.calls, 20)
  assert.equal(found[0].detail.awaitsAtHand, true)
})

test('no request at all: the report says so, and how to send some', async () => {
  const run = await dynoAsync(['--on-port', 'true', '--', process.execPath, examplePath('loop-all.js')])
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /No HTTP request reached the app while it was observed: drive it with --load or --on-port\./)
  assert.ok(existsSync(join(/** @type {string} */ (run.folder), 'report.html')))
})

test('--sample takes a whole number from 1', async () => {
  const run = await dynoAsync(['--sample', '0', '--', process.execPath, examplePath('loop-all.js')])
  assert.equal(run.code, 2)
  assert.match(run.stderr, /--sample/)
  assert.equal(run.stderr.trim().split('\n').length, 1)
})

test('--max-rate caps the traces a second, whatever --sample says', async () => {
  const started = Date.now()
  const run = await dynoAsync(['--sample', '1', '--max-rate', '1', '--json', '--load', '-c 1 -a 30 http://127.0.0.1:$PORT/', '--', process.execPath, examplePath('loop-all.js')])
  const seconds = (Date.now() - started) / 1000
  assert.equal(run.code, 0, run.stderr)
  assert.equal(run.json.requests.received, 30)
  assert.equal(run.json.requests.perSecond, 1)
  // One trace in each second the run spanned, at most.
  assert.ok(run.json.requests.traced >= 1 && run.json.requests.traced <= Math.ceil(seconds) + 1, `${run.json.requests.traced} traced in ${seconds} s`)
})

test('tracing leaves Node\'s callbacks on their fast path: no executionAsyncResource(), which would send every callback through a trampoline for good', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-async-callbacks-'))
  const out = join(cwd, 'callback-path.json')
  const app = fileURLToPath(new URL('../../fixtures/apps/async-callback-path.cjs', import.meta.url))
  const run = await runDyno(['async', '--sample', '1', ...load(5), '--', process.execPath, '--expose-internals', '--no-warnings', app], { cwd, env: { PORT: '0', CALLBACK_PATH_OUT: out }, timeout: 90_000 })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /5 requests, 5 traced/)
  assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), { trampoline: false })
})

test('a cluster: the worker that traced the most requests is shown, not the primary that listened first; --json keeps the workers\' output off stdout', async () => {
  const server = fileURLToPath(new URL('../../../examples/cluster/server.js', import.meta.url))
  // Two seconds: both workers listen well before the load ends.
  const run = await dynoAsync(['--json', '--load', '-c 2 -d 2 http://127.0.0.1:$PORT/', '--', process.execPath, server])
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stderr, /worker \d+ listening/)
  // The primary receives the connections and answers no request: its trace is empty.
  assert.ok(run.json.requests.traced > 0, `${run.json.requests.traced} traced`)
  const meta = JSON.parse(readFileSync(join(/** @type {string} */ (run.folder), 'meta.json'), 'utf8'))
  assert.equal(meta.process.sharing, 3)
  assert.match(run.stderr, new RegExp(`worker ${meta.process.pid} listening`))
})
