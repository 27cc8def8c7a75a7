/**
 * The analysis on what the async collector recorded for the examples
 * (test/fixtures/async/, see its README): each finding at its line with a
 * saving within 20% of the one the examples' known waits give, none for
 * the fixed versions, and the critical path of a request.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { analyzeAsync } from '../../../lib/kinds/async/analyze.js'
import { isAsyncFunctionStart } from '../../../lib/kinds/async/unneeded.js'
import { parseAsyncData } from '../../../lib/kinds/async/data.js'
import { limitedTime } from '../../../lib/kinds/async/patterns.js'
import { EXPECTED, FIXED, ITEMS, QUERIES, CONNECTIONS, WAIT_MS, lineOf, within } from '../../helpers/async.js'

const fixture = (/** @type {string} */ name) => readFileSync(new URL(`../../fixtures/async/${name}.jsonl`, import.meta.url), 'utf8')
const analyze = (/** @type {string} */ name) => analyzeAsync(parseAsyncData(fixture(name)))
const fileName = (/** @type {string} */ file) => file.slice(file.lastIndexOf('/') + 1)

for (const [example, expected] of Object.entries(EXPECTED)) {
  test(`${example}: one ${expected.kind} at its line, saving within 20% of the true one`, () => {
    const analysis = analyze(example.replace(/\.c?js$/, ''))
    assert.equal(analysis.findings.length, 1, JSON.stringify(analysis.findings.map((f) => f.kind)))
    const [finding] = analysis.findings
    assert.equal(finding.kind, expected.kind)
    assert.equal(fileName(finding.location.file), example)
    assert.equal(finding.location.line, expected.line())
    assert.ok(within(finding.savingMs, expected.savingMs), `saving ${finding.savingMs} ms, true ${expected.savingMs} ms`)
    assert.ok(within(finding.perRequestMs, expected.costMs), `cost ${finding.perRequestMs} ms, true ${expected.costMs} ms`)
    assert.equal(finding.requests, analysis.traced.analyzed)
  })
}

for (const example of FIXED) {
  test(`${example}, the fixed version, gets no finding`, () => {
    const analysis = analyze(example.replace(/\.c?js$/, ''))
    assert.ok(analysis.traced.analyzed >= 3)
    assert.deepEqual(analysis.findings, [])
  })
}

test('serial awaits: each await with its line and wait; together they would take the longest', () => {
  const [finding] = analyze('chain-serial').findings
  const detail = /** @type {import('../../../lib/kinds/async/analyze.js').SerialDetail} */ (finding.detail)
  const file = '/app/examples/async/chain-serial.cjs'
  assert.deepEqual(detail.awaits.map((a) => a.location.line), [lineOf('examples/async/chain-serial.cjs', 'await readUser('), lineOf('examples/async/chain-serial.cjs', 'await readOrders('), lineOf('examples/async/chain-serial.cjs', 'await readRecommendations(')])
  assert.ok(detail.awaits.every((a) => a.location.file === file))
  assert.ok(within(detail.longestMs, WAIT_MS.recommendations))
  assert.equal(finding.location.fn, 'readPage')
})

test('await in a loop: the count, each wait, and what Promise.all and ten at a time would take', () => {
  const [finding] = analyze('loop-serial').findings
  const detail = /** @type {import('../../../lib/kinds/async/analyze.js').LoopDetail} */ (finding.detail)
  assert.equal(detail.count, ITEMS)
  assert.ok(within(detail.eachMs, WAIT_MS.item))
  assert.ok(within(detail.allMs, WAIT_MS.item, 0.5))
  assert.ok(within(detail.limitedMs, Math.ceil(ITEMS / 10) * WAIT_MS.item, 0.5))
  assert.equal(detail.limit, 10)
})

test('unbounded fan-out: the operations, how many are served at once, the wait growing from first to last', () => {
  const [finding] = analyze('fan-out').findings
  const detail = /** @type {import('../../../lib/kinds/async/analyze.js').FanOutDetail} */ (finding.detail)
  assert.equal(detail.count, QUERIES)
  assert.equal(Math.round(detail.atOnce), CONNECTIONS)
  assert.ok(detail.lastMs > detail.firstMs * 5)
  assert.equal(fileName(detail.madeAt.file), 'backend.cjs')
})

test('a .then chain is a chain of serial waits, found at its first link', () => {
  const analysis = analyze('then-chain')
  assert.equal(analysis.findings.length, 1)
  const [finding] = analysis.findings
  assert.equal(finding.kind, 'serial-awaits')
  assert.equal(finding.location.line, lineOf('test/fixtures/apps/async-then-chain.cjs', '.then(() => wait(20))'))
  assert.ok(within(finding.savingMs, 20 + 50))
})

test('the critical path of the typical request: its waits, each with the await that continued after it', () => {
  const analysis = analyze('chain-serial')
  const typical = /** @type {import('../../../lib/kinds/async/analyze.js').RequestView} */ (analysis.typical)
  const sites = new Map(analysis.sites.map((s) => [s.id, s]))
  const line = (/** @type {number} */ site) => sites.get(site)?.frames[0].line
  const waits = typical.steps.filter((s) => s.end - s.start > 5)
  assert.deepEqual(waits.map((s) => s.kind), ['timer', 'timer', 'timer'])
  assert.deepEqual(waits.map((s) => line(s.awaitedAt)), [10, 11, 12].map((n) => lineOf('examples/async/chain-serial.cjs', ['await readUser(', 'await readOrders(', 'await readRecommendations('][n - 10])))
  assert.ok(within(waits[2].end - waits[2].start, WAIT_MS.recommendations))
  // The bars on the path are marked, the others not.
  assert.ok(typical.bars.some((b) => b.critical) && typical.bars.some((b) => !b.critical))
})

test('callback code: no finding, and its critical path goes through the file read and the timer', () => {
  const analysis = analyze('callbacks')
  assert.deepEqual(analysis.findings, [])
  const typical = /** @type {import('../../../lib/kinds/async/analyze.js').RequestView} */ (analysis.typical)
  // Reading a file is an open, reads and a close; then the 10 ms timer.
  assert.deepEqual(typical.steps.map((s) => s.kind), ['fs', 'fs', 'fs', 'fs', 'timer'])
  assert.equal(typical.steps[4].end, typical.bars.find((b) => b.id === typical.steps[4].id)?.end)
})

test('operations grouped by call site: counts over the traced requests, waits', () => {
  const analysis = analyze('loop-serial')
  const sites = new Map(analysis.sites.map((s) => [s.id, s]))
  const loopLine = lineOf('examples/async/loop-serial.js', 'await backend.readItem(id)')
  const awaits = analysis.callSites.filter((g) => g.kind === 'await' && sites.get(g.site)?.frames[0].line === loopLine)
  assert.equal(awaits.reduce((n, g) => n + g.count, 0), ITEMS * analysis.traced.total)
  for (const group of awaits) assert.ok(within(group.meanWaitMs, WAIT_MS.item, 0.5))
})

test('requests that never finished: they are reported as such, the slowest among them, with what they waited on so far', () => {
  const lines = fixture('chain-serial').split('\n').map((line) => {
    if (!line.includes('"type":"request"')) return line
    const request = JSON.parse(line)
    // Cut each request after its second wait, as if observing had ended then.
    return JSON.stringify({ ...request, how: 'open', durationMs: 100, ops: request.ops.filter((/** @type {number[]} */ op) => op[5] < 100).map((/** @type {number[]} */ op) => op.map((v, i) => (i >= 6 && i <= 8 && v > 100 ? -1 : v))) })
  })
  const analysis = analyzeAsync(parseAsyncData(lines.join('\n')))
  assert.equal(analysis.traced.finished, 0)
  assert.equal(analysis.traced.open, analysis.traced.total)
  assert.equal(analysis.latency, null)
  assert.equal(analysis.typical, null)
  assert.equal(analysis.slowest?.how, 'open')
  assert.ok(analysis.slowest.bars.some((b) => !b.settled), 'the wait in progress never settled')
})

test('a line cut short by a crash, and lines of other kinds, are skipped', () => {
  const text = fixture('chain-serial')
  const cut = text.slice(0, text.lastIndexOf('"type":"request"') + 40)
  const data = parseAsyncData(cut + '\n{"type":"future"}\nnot json\n')
  assert.equal(data.requests.length, parseAsyncData(text).requests.length - 1)
})

test('no data at all: nothing traced, no finding', () => {
  const analysis = analyzeAsync(parseAsyncData(''))
  assert.equal(analysis.traced.total, 0)
  assert.deepEqual(analysis.findings, [])
  assert.equal(analysis.typical, null)
  assert.equal(analysis.slowest, null)
})

test('ten at a time: ten workers taking the iterations in order', () => {
  assert.equal(limitedTime([10, 10, 10], 10), 10)
  assert.equal(limitedTime(new Array(20).fill(5), 10), 10)
  assert.equal(limitedTime([50, 10, 10, 10], 2), 50)
  assert.equal(limitedTime([], 10), 0)
})

test('unneeded-async: the start of an async function, from the source text at the place V8 gives its promise', () => {
  // V8 places an async function's promise at its parameters, an arrow function's at its `async`.
  assert.equal(isAsyncFunctionStart('async function price (item) {', 22), true)
  assert.equal(isAsyncFunctionStart('export default async function (req) {', 31), true)
  assert.equal(isAsyncFunctionStart('  async total(items) {', 14), true)
  assert.equal(isAsyncFunctionStart('  static async load (id) {', 20), true)
  assert.equal(isAsyncFunctionStart('const price = async (item) => item.cost', 15), true)
  // A promise made inside a function's body is not the function's own.
  assert.equal(isAsyncFunctionStart('function later (x) { return new Promise((r) => r(x)) }', 29), false)
  assert.equal(isAsyncFunctionStart('async function f () { return Promise.resolve(1) }', 30), false)
  assert.equal(isAsyncFunctionStart(null, 1), false)
})
