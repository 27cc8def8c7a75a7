import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { observe } from '../../../lib/observe/observe.js'
import { onceWithin, waitFor } from '../../helpers/wait.js'

const AGENT = fileURLToPath(new URL('../../../lib/agent/agent.cjs', import.meta.url))
const APP = fileURLToPath(new URL('../../fixtures/doctor/collector-app.cjs', import.meta.url))

/** The agent with the doctor collector alone, writing into `runDir`. @param {string} runDir */
const agentEnv = (runDir) => ({ ...process.env, NODE_OPTIONS: `--require "${AGENT}"`, DYNO_RUN_DIR: runDir, DYNO_COLLECTORS: JSON.stringify({ doctor: { sampleIntervalMs: 10 } }) })

/** The lines the collector wrote, in `<runDir>/raw/<pid>.doctor.jsonl`. @param {string} runDir */
function readLines (runDir) {
  const dir = join(runDir, 'raw')
  if (!existsSync(dir)) return []
  const name = readdirSync(dir).find((f) => /^\d+\.doctor\.jsonl$/.test(f))
  if (!name) return []
  return readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))
}

/**
 * Runs the fixture app with the collector, to its end.
 * @param {string[]} args @param {string[]} [nodeFlags]
 */
function runApp (args, nodeFlags = []) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-doctor-collector-'))
  // An agent that kept the app alive would hang the test: a deadline, said as such.
  const run = spawnSync(process.execPath, [...nodeFlags, APP, ...args], { encoding: 'utf8', env: agentEnv(dir), timeout: 60_000 })
  assert.equal(run.signal, null, `the app ${args.join(' ')} did not end by itself within 60 s: ${run.stderr}`)
  return { run, lines: readLines(dir) }
}

/**
 * The worker's lines while the loop was held, one run of consecutive lines per hold.
 * @param {any[]} lines
 * @returns {any[][]}
 */
function blockedRuns (lines) {
  /** @type {any[][]} */
  const runs = []
  lines.forEach((line, i) => {
    if (!line.blocked) return
    if (i > 0 && lines[i - 1].blocked) runs[runs.length - 1].push(line)
    else runs.push([line])
  })
  return runs
}

/** @param {any[]} lines @param {(line: any) => number} pick */
const sum = (lines, pick) => lines.reduce((total, line) => total + pick(line), 0)

test('every line has the documented figures, in time order, and every request is counted', () => {
  const { run, lines } = runApp(['requests', '30'])
  assert.equal(run.status, 0, run.stderr)
  assert.ok(lines.length > 5, `${lines.length} lines`)
  for (let i = 1; i < lines.length; i++) assert.ok(lines[i].t >= lines[i - 1].t, `line ${i} is in time order`)
  const sampled = lines.filter((line) => !line.blocked)
  for (const line of sampled) {
    assert.ok(line.dt >= 0 && line.elu >= 0 && line.elu <= 1)
    assert.ok(line.cpu.user >= 0 && line.cpu.system >= 0)
    assert.equal(typeof line.gc.max, 'number')
    assert.ok(line.delay === null || (line.delay.min <= line.delay.p50 && line.delay.p50 <= line.delay.p99 && line.delay.p99 <= line.delay.max))
  }
  const slow = sampled.filter((line) => line.mem !== undefined)
  assert.ok(slow.length >= 1)
  for (const line of slow) {
    assert.ok(line.mem.heapUsed > 0 && line.mem.heapTotal >= line.mem.heapUsed)
    assert.ok(line.mem.rss > line.mem.heapUsed && line.mem.external >= 0 && line.mem.arrayBuffers >= 0)
    assert.ok(line.spaces.old[0] >= line.spaces.old[1])
    assert.ok(line.listeners.process >= 1)
  }
  assert.ok(slow.some((line) => line.active.TCPServerWrap === 1), 'the listening server is an active handle')
  assert.equal(sum(sampled, (line) => line.http.started), 30)
  assert.equal(sum(sampled, (line) => line.http.finished), 30)
  assert.equal(sampled.at(-1).http.inFlight, 0)
})

test('dyno hears a summary four times a second, for the live view', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'dyno-doctor-live-'))
  /** @type {any[]} */
  const live = []
  const observed = await observe({
    command: [process.execPath, APP, 'requests', '400'],
    cwd: folder,
    env: process.env,
    folder,
    collectors: { doctor: { sampleIntervalMs: 10 } },
    load: null,
    onPort: null,
    listenTimeoutMs: 10_000
  }, { onAgentData: (message) => live.push(message) })
  assert.equal(observed.exit.code, 0)
  assert.ok(live.length >= 1)
  for (const summary of live) {
    assert.equal(summary.collector, 'doctor')
    assert.equal(summary.pid, observed.listening?.pid)
    assert.ok(summary.elu >= 0 && summary.elu <= 1 && summary.cpu >= 0 && summary.rss > 0 && summary.rps >= 0 && summary.delayMax >= 0)
  }
})

test('a loop held for 1.5 s shows as a growing delay, written by the worker while it lasts', () => {
  const { run, lines } = runApp(['stuck', '1500'])
  assert.equal(run.status, 0, run.stderr)
  const held = blockedRuns(lines).sort((a, b) => b.length - a.length)[0]
  assert.ok(held && held.length >= 2, 'the worker wrote while the loop was held')
  for (let i = 1; i < held.length; i++) assert.ok(held[i].delay.max > held[i - 1].delay.max, 'the delay grows')
  for (const line of held) assert.ok(line.mem.rss > 0 && line.elu === 1)
  // Once the loop turned again, the main thread's own monitor saw the whole hold.
  const longest = Math.max(...lines.filter((line) => !line.blocked && line.delay).map((line) => line.delay.max))
  assert.ok(longest >= 1400, `longest delay ${longest} ms`)
  // The process's CPU, read by the worker now and then and shared among the
  // lines, adds up to no more than what the process used, and to at least what
  // the hold used, which the lines span (its start, before the agent, is not in
  // them: a busy machine makes that a larger share of the whole).
  const total = Number(/^cpu ([\d.]+)/m.exec(run.stderr)?.[1])
  const holdCpu = Number(/^held cpu ([\d.]+)/m.exec(run.stderr)?.[1])
  const lined = sum(lines, (line) => line.cpu.user + line.cpu.system)
  assert.ok(lined <= total + 1 && lined >= holdCpu - 1, `${lined} ms in the lines, ${holdCpu} ms held, ${total} ms in all`)
})

test('GC pauses are counted by kind', () => {
  const { run, lines } = runApp(['gc'], ['--expose-gc'])
  assert.equal(run.status, 0, run.stderr)
  assert.ok(sum(lines, (line) => line.gc?.markCompact?.[0] ?? 0) >= 1, 'the forced full GC')
  assert.ok(sum(lines, (line) => line.gc?.scavenge?.[0] ?? 0) >= 1, 'young-generation collections')
  assert.ok(lines.some((line) => line.gc?.max > 0))
})

test('listeners of an emitter Node warned about are counted as they grow', () => {
  const { run, lines } = runApp(['listeners', '25'])
  assert.equal(run.status, 0, run.stderr)
  assert.match(run.stderr, /MaxListenersExceededWarning/, 'the app\'s warning is still printed')
  const counts = lines.filter((line) => line.listeners).map((line) => line.listeners['EventEmitter "change"']).filter((n) => n !== undefined)
  assert.ok(counts.length >= 2)
  assert.equal(Math.max(...counts), 25)
  assert.ok(counts.at(-1) > counts[0])
})

test('process.exit right after the last request: the lines until then are written', () => {
  const { run, lines } = runApp(['exit', '20'])
  assert.equal(run.status, 3)
  assert.equal(sum(lines.filter((line) => line.http), (line) => line.http.finished), 20)
})

test('a loop held for good: the file keeps growing with the delay, and survives SIGKILL', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-doctor-forever-'))
  const child = spawn(process.execPath, [APP, 'forever'], { env: agentEnv(dir), stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    await onceWithin(child.stdout, 'data', { what: 'the app\'s first line' })
    // Until the worker has written three lines of the held loop.
    await waitFor(() => (blockedRuns(readLines(dir)).at(-1)?.length ?? 0) >= 3, { what: 'three lines of the held loop from the worker', intervalMs: 100 })
  } finally {
    child.kill('SIGKILL')
  }
  if (child.exitCode === null && child.signalCode === null) await onceWithin(child, 'exit', { what: 'the app\'s end after SIGKILL' })
  const held = /** @type {any[]} */ (blockedRuns(readLines(dir)).at(-1))
  for (let i = 1; i < held.length; i++) assert.ok(held[i].delay.max > held[i - 1].delay.max, 'the delay grows')
})
