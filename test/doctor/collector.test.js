import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const DRIVER = fileURLToPath(new URL('../fixtures/doctor/drive-collector.cjs', import.meta.url))
const APP = fileURLToPath(new URL('../fixtures/doctor/collector-app.cjs', import.meta.url))

/** @param {string} dir @param {string} suffix */
function readLines (dir, suffix) {
  const name = readdirSync(dir).find((f) => f.endsWith(suffix))
  if (!name) return []
  return readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))
}

/**
 * Runs the fixture app with the collector, to its end.
 * @param {string[]} args @param {string[]} [nodeFlags]
 */
function observe (args, nodeFlags = []) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-doctor-collector-'))
  const run = spawnSync(process.execPath, [...nodeFlags, '--require', DRIVER, APP, ...args], { encoding: 'utf8', env: { ...process.env, DOCTOR_DIR: dir } })
  return { run, lines: readLines(dir, '.doctor.jsonl'), live: readLines(dir, '.live.jsonl') }
}

/** @param {any[]} lines @param {(line: any) => number} pick */
const sum = (lines, pick) => lines.reduce((total, line) => total + pick(line), 0)

test('every line has the documented figures, in time order, and every request is counted', () => {
  const { run, lines, live } = observe(['requests', '30'])
  assert.equal(run.status, 0, run.stderr)
  assert.ok(lines.length > 5, `${lines.length} lines`)
  for (let i = 1; i < lines.length; i++) assert.ok(lines[i].t >= lines[i - 1].t, `line ${i} is in time order`)
  const sampled = lines.filter((line) => !line.blocked)
  for (const line of sampled) {
    assert.ok(line.dt >= 0 && line.elu >= 0 && line.elu <= 1)
    assert.ok(line.cpu.user >= 0 && line.cpu.system >= 0)
    assert.ok(line.mem.heapUsed > 0 && line.mem.heapTotal >= line.mem.heapUsed)
    assert.equal(typeof line.gc.max, 'number')
    assert.ok(line.delay === null || (line.delay.min <= line.delay.p50 && line.delay.p50 <= line.delay.p99 && line.delay.p99 <= line.delay.max))
  }
  const slow = sampled.filter((line) => line.mem.rss !== undefined)
  assert.ok(slow.length >= 1)
  for (const line of slow) {
    assert.ok(line.mem.rss > line.mem.heapUsed && line.mem.external >= 0 && line.mem.arrayBuffers >= 0)
    assert.ok(line.spaces.old[0] >= line.spaces.old[1])
    assert.ok(line.listeners.process >= 1)
  }
  assert.ok(slow.some((line) => line.active.TCPServerWrap === 1), 'the listening server is an active handle')
  assert.equal(sum(sampled, (line) => line.http.started), 30)
  assert.equal(sum(sampled, (line) => line.http.finished), 30)
  assert.equal(sampled.at(-1).http.inFlight, 0)
  assert.ok(live.length >= 1)
  assert.ok(live.every((summary) => summary.type === 'doctor' && summary.pid > 0 && summary.elu >= 0 && summary.rss > 0))
})

test('a loop held for 1.5 s shows as a growing delay, written by the worker while it lasts', () => {
  const { run, lines } = observe(['stuck', '1500'])
  assert.equal(run.status, 0, run.stderr)
  const blocked = lines.filter((line) => line.blocked)
  assert.ok(blocked.length >= 1, 'the worker wrote while the loop was held')
  for (let i = 1; i < blocked.length; i++) {
    if (blocked[i].t - blocked[i - 1].t < 1000) assert.ok(blocked[i].delay.max > blocked[i - 1].delay.max, 'the delay grows')
  }
  for (const line of blocked) assert.ok(line.mem.rss > 0 && line.elu === 1)
  // Once the loop turned again, the main thread's own monitor saw the whole hold.
  const longest = Math.max(...lines.filter((line) => !line.blocked && line.delay).map((line) => line.delay.max))
  assert.ok(longest >= 1400, `longest delay ${longest} ms`)
})

test('GC pauses are counted by kind', () => {
  const { run, lines } = observe(['gc'], ['--expose-gc'])
  assert.equal(run.status, 0, run.stderr)
  assert.ok(sum(lines, (line) => line.gc?.markCompact?.[0] ?? 0) >= 1, 'the forced full GC')
  assert.ok(sum(lines, (line) => line.gc?.scavenge?.[0] ?? 0) >= 1, 'young-generation collections')
  assert.ok(lines.some((line) => line.gc?.max > 0))
})

test('listeners of an emitter Node warned about are counted as they grow', () => {
  const { run, lines } = observe(['listeners', '25'])
  assert.equal(run.status, 0, run.stderr)
  assert.match(run.stderr, /MaxListenersExceededWarning/, 'the app\'s warning is still printed')
  const counts = lines.filter((line) => line.listeners).map((line) => line.listeners['EventEmitter "change"']).filter((n) => n !== undefined)
  assert.ok(counts.length >= 2)
  assert.equal(Math.max(...counts), 25)
  assert.ok(counts.at(-1) > counts[0])
})

test('process.exit right after the last request: the lines until then are written', () => {
  const { run, lines } = observe(['exit', '20'])
  assert.equal(run.status, 3)
  assert.equal(sum(lines.filter((line) => line.http), (line) => line.http.finished), 20)
})

test('a loop held for good: the file keeps growing with the delay, and survives SIGKILL', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-doctor-forever-'))
  const child = spawn(process.execPath, ['--require', DRIVER, APP, 'forever'], { env: { ...process.env, DOCTOR_DIR: dir }, stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise((resolve) => child.stdout.once('data', resolve))
  // Until the worker has written two lines of the held loop.
  while (readLines(dir, '.doctor.jsonl').filter((line) => line.blocked).length < 2) await new Promise((resolve) => setTimeout(resolve, 100))
  child.kill('SIGKILL')
  await new Promise((resolve) => child.once('exit', resolve))
  const blocked = readLines(dir, '.doctor.jsonl').filter((line) => line.blocked)
  assert.ok(blocked.at(-1).delay.max > blocked[0].delay.max)
})
