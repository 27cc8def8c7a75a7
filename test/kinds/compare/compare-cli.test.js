import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { runDyno } from '../../helpers/cli.js'

/**
 * A dyno micro result with one case, from its per-process ops/sec.
 * @param {number[]} processes @param {string} [node]
 */
function microRun (processes, node = 'v20.20.2') {
  const logs = processes.map(Math.log)
  const opsPerSecond = Math.exp(logs.reduce((s, x) => s + x, 0) / logs.length)
  return {
    schemaVersion: 2,
    kind: 'dyno-micro',
    node,
    startedAt: '2026-11-23T10:00:00.000Z',
    files: [{ file: 'bench.js', error: null, groups: [{ name: '', cases: [{ name: 'sum', error: null, summary: { opsPerSecond, processOpsPerSecond: processes } }] }] }]
  }
}

/** @param {...any} runs */
const savedRuns = (...runs) => ({ schemaVersion: 1, kind: 'dyno-micro-runs', runs })

/** @param {Record<string, unknown>} files */
function folder (files) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-compare-'))
  after(() => rmSync(dir, { recursive: true, force: true }))
  for (const [name, doc] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(doc))
  return dir
}

test('compare shows the ops/sec dyno micro printed: the geometric mean over processes', async () => {
  const dir = folder({ 'a.json': microRun([1000, 4000, 2000, 2000]), 'b.json': microRun([2000, 2000, 2000, 2000]) })
  const { code, stdout } = await runDyno(['compare', 'a.json', 'b.json'], { cwd: dir })
  assert.equal(code, 0)
  // The arithmetic mean of a would be 2,250.
  assert.match(stdout, /│ sum +│ 2,000 +│ 2,000 +│ 1\.00x/)
})

test('two single runs that differ by what runs of the same code differ by here are indistinguishable, and --against is recommended', async () => {
  // Process spread 5%, the run means 12% apart: Welch's test on processes alone calls this different (p < 0.001).
  const a = [100, 105, 95, 102, 98, 101, 99, 104, 96, 100].map((x) => x * 1000)
  const b = a.map((x) => x * 1.12)
  const dir = folder({ 'a.json': microRun(a), 'b.json': microRun(b) })
  const { code, stdout } = await runDyno(['compare', 'a.json', 'b.json'], { cwd: dir })
  assert.equal(code, 0)
  assert.match(stdout, /│ sum +│ 99,954 +│ 111,948 +│ 1\.12x \(0\.[\d]+x–1\.[\d]+x\) +│ p = 0\.\d+ +│ indistinguishable │/)
  assert.match(stdout, /dyno micro --against <git-ref> <file>/)
})

test('a change far beyond the drift is found; saved runs of a name count as runs, and --json has one shape', async () => {
  const base = [100, 105, 95, 102, 98, 101, 99, 104, 96, 100].map((x) => x * 1000)
  const dir = folder({
    'before.json': savedRuns(microRun(base), microRun(base.map((x) => x * 1.03))),
    'after.json': microRun(base.map((x) => x * 2))
  })
  const { code, stdout } = await runDyno(['compare', 'before.json', 'after.json'], { cwd: dir })
  assert.equal(code, 0)
  assert.match(stdout, /^a: before\.json \(2 runs, Node v20\.20\.2, /)
  assert.match(stdout, /│ sum +│ 101,442 +│ 199,908 +│ 1\.97x \([\d.]+x–[\d.]+x\) +│ p [<=] [\d.]+ +│ faster +│/)
  assert.match(stdout, /^Faster in b: sum \(1\.97x\)$/m)
  const json = JSON.parse((await runDyno(['compare', '--json', 'before.json', 'after.json'], { cwd: dir })).stdout)
  assert.equal(json.schemaVersion, 1)
  assert.equal(json.comparisons.length, 1)
  const [sum] = json.comparisons
  for (const key of ['ratio', 'low', 'high', 'p']) assert.equal(typeof sum[key], 'number')
  assert.equal(sum.verdict, 'faster')
  assert.deepEqual(sum.runs, { a: 2, b: 1 })
})

test('dyno compare reads two dyno load --json results; results of two kinds are refused', async () => {
  const load = (/** @type {number[]} */ samples) => ({ schemaVersion: 1, requests: { perSecond: { samples } } })
  const dir = folder({ 'a.json': load([1000, 1010, 990, 1005, 995]), 'b.json': load([1500, 1490, 1510, 1505, 1495]), 'm.json': microRun([1, 2]) })
  const { code, stdout } = await runDyno(['compare', 'a.json', 'b.json'], { cwd: dir })
  assert.equal(code, 0)
  assert.match(stdout, /│ Req\/Sec │ 1,000 +│ 1,500 +│ 1\.50x \(1\.4\dx–1\.5\dx\) │ p < 0\.001 │ faster +│/)
  const mixed = await runDyno(['compare', 'a.json', 'm.json'], { cwd: dir })
  assert.equal(mixed.code, 2)
  assert.match(mixed.stderr, /^dyno compare: a\.json is a load result and m\.json a micro result; compare two of a kind\n$/)
})

test('--fail-if-slower on two saved results: exit 3 and one line when b is slower by more than it allows with 95% confidence, 0 otherwise', async () => {
  const base = [100, 105, 95, 102, 98, 101, 99, 104, 96, 100].map((x) => x * 1000)
  const dir = folder({
    'before.json': savedRuns(microRun(base), microRun(base.map((x) => x * 1.03))),
    'half.json': microRun(base.map((x) => x / 2)),
    'same.json': microRun(base)
  })
  const slower = await runDyno(['compare', '--fail-if-slower', '10', 'before.json', 'half.json'], { cwd: dir })
  assert.equal(slower.code, 3, slower.stderr)
  assert.match(slower.stderr, /^dyno compare: slower by more than 10% with 95% confidence: sum 0\.49x \(0\.\d+x–0\.\d+x\)\n$/)
  assert.match(slower.stdout, /^The smallest change this measurement would have found, 4 times in 5: sum [\d.]+%\.$/m)
  const json = JSON.parse((await runDyno(['compare', '--json', '--fail-if-slower', '10', 'before.json', 'half.json'], { cwd: dir })).stdout)
  assert.deepEqual(json.gate, { percent: 10, failed: true, slower: ['sum'], unsettled: [] })
  assert.equal(typeof json.comparisons[0].detectable, 'number')
  // Slower by about half, which 60% allows: not slower than that with 95% confidence.
  const allowed = await runDyno(['compare', '--fail-if-slower', '60', 'before.json', 'half.json'], { cwd: dir })
  assert.equal(allowed.code, 0, allowed.stderr)
  assert.match(allowed.stderr, /^dyno compare: not slower by more than 60% with 95% confidence: sum 0\.49x/)
  const same = await runDyno(['compare', '--fail-if-slower', '5', 'before.json', 'same.json'], { cwd: dir })
  assert.equal(same.code, 0, same.stderr)
  for (const bad of ['0', '-3', '100', 'fast']) {
    const run = await runDyno(['compare', '--fail-if-slower', bad, 'before.json', 'same.json'], { cwd: dir })
    assert.equal(run.code, 2, `${bad}: ${run.stderr}`)
    assert.match(run.stderr, /--fail-if-slower/)
  }
})
