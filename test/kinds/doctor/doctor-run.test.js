/**
 * dyno doctor on real apps under real load: each example of
 * examples/doctor/ gets its kind, the healthy one nothing else; an app that
 * crashes, exits or holds its loop for good still gets a run folder whose
 * report says what happened.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { runDyno, signalWhenPrinted } from '../../helpers/cli.js'

const example = (/** @type {string} */ name) => fileURLToPath(new URL(`../../../examples/doctor/${name}.js`, import.meta.url))
const fixture = (/** @type {string} */ name) => fileURLToPath(new URL(`../../fixtures/apps/${name}`, import.meta.url))

/** @param {string} cwd */
function onlyRun (cwd) {
  const runs = readdirSync(join(cwd, '.dyno'))
  assert.equal(runs.length, 1)
  return join(cwd, '.dyno', runs[0])
}

/**
 * `dyno doctor --json` with a load at an example, in a folder of its own.
 * @param {string} name @param {string} load
 */
async function doctor (name, load) {
  const cwd = mkdtempSync(join(tmpdir(), `dyno-doctor-${name}-`))
  const run = await runDyno(['doctor', '--json', '--load', load, '--', process.execPath, example(name)], { cwd, env: { PORT: '0' }, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  return { document: JSON.parse(run.stdout), folder: onlyRun(cwd) }
}

const LOAD = '-c 10 -d 5 http://127.0.0.1:$PORT/'

test('a CPU-burning handler: event-loop-blocked, and flame with the same load and command next', async () => {
  const { document, folder } = await doctor('blocking', LOAD)
  assert.deepEqual(document.diagnoses.map((/** @type {any} */ d) => d.kind), ['event-loop-blocked'])
  assert.equal(document.diagnoses[0].next, `dyno flame --load '${LOAD}' -- ${process.execPath} ${example('blocking')}`)
  assert.equal(document.schemaVersion, 1)
  assert.equal(document.window.source, 'load')
  assert.ok(document.summary.delay.p99 >= 20)
  for (const file of ['meta.json', 'doctor.jsonl', 'doctor.json', 'load-timeline.json', 'report.html']) assert.ok(existsSync(join(folder, file)), file)
})

test('large short-lived allocations: gc-pressure, and the allocation view next', async () => {
  const { document } = await doctor('allocating', LOAD)
  assert.deepEqual(document.diagnoses.map((/** @type {any} */ d) => d.kind), ['gc-pressure'])
  assert.match(document.diagnoses[0].next, /^dyno heap --sampling --load /)
})

test('a store that keeps a key per request: memory-growth, confirmed by a full GC after the load, and dyno heap next', async () => {
  const { document, folder } = await doctor('leaking', '-c 10 -d 6 http://127.0.0.1:$PORT/')
  assert.deepEqual(document.diagnoses.map((/** @type {any} */ d) => d.kind), ['memory-growth'])
  assert.match(document.diagnoses[0].evidence, /, and a full GC after the load left [\d.]+ MB \([\d.]+ MB in one before it\)$/)
  assert.match(document.diagnoses[0].next, /^dyno heap --load /)
  // One full GC before the load, one after it: the whole window between them.
  const { before, after } = JSON.parse(readFileSync(join(folder, 'full-gcs.json'), 'utf8'))
  assert.ok(after.t - before.t >= document.window.endMs - document.window.startMs, `${after.t - before.t} ms between the full GCs`)
  // The line that holds the pause of the one before ends before the window starts: the agent answers
  // only once it has sampled past it (two sample intervals, far more than the two clocks differ).
  const lines = readFileSync(join(folder, 'doctor.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line))
  const pause = lines.find((line) => line.t >= before.t)
  assert.ok(pause.t < document.window.startMs, `the line of the full GC ends ${pause.t - document.window.startMs} ms into the window`)
  assert.ok(after.heapUsed > before.heapUsed)
  assert.deepEqual(document.summary.memory.heapAfterFullGc, { beforeLoad: before.heapUsed, afterLoad: after.heapUsed, inFlightAfter: 0 })
})

test('sequential timer-based waits: io-wait, and dyno async next', async () => {
  const { document } = await doctor('waiting', LOAD)
  assert.deepEqual(document.diagnoses.map((/** @type {any} */ d) => d.kind), ['io-wait'])
  assert.match(document.diagnoses[0].next, /^dyno async --load /)
})

test('a plain hello server saturated by the load: healthy, and nothing else', async () => {
  const { document } = await doctor('hello', LOAD)
  assert.deepEqual(document.diagnoses.map((/** @type {any} */ d) => d.kind), ['healthy'])
  assert.ok(document.summary.http.finished > 0)
  assert.equal(document.summary.http.finished, document.summary.http.started)
})

test('the terminal report: diagnoses, evidence, next command, the key figures, and dyno report renders the folder again', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-doctor-terminal-'))
  const run = await runDyno(['doctor', '--load', '-c 5 -d 2 http://127.0.0.1:$PORT/', '--', process.execPath, example('hello')], { cwd, env: { PORT: '0' } })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /^● healthy: Healthy: no problem found\n {2}event-loop delay p99 /m)
  assert.match(run.stdout, /^ {2}It would not hold if another rule had held/m)
  assert.match(run.stdout, /^ {2}Next: dyno flame --load '-c 5 -d 2 http:\/\/127\.0\.0\.1:\$PORT\/' -- /m)
  assert.match(run.stdout, /│ Event-loop delay +│ p50 /)
  assert.match(run.stdout, /The app stopped by dyno after the load\.\nReport: file:\/\/.*report\.html\n$/)
  assert.ok(!run.stderr.includes('\u001b['), 'no live view when not on a terminal')
  const again = await runDyno(['report', onlyRun(cwd)], { cwd })
  assert.equal(again.code, 0, again.stderr)
  assert.match(again.stdout, /^● healthy: /m)
})

test('an app that crashes under load: a run folder whose report says it crashed', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-doctor-crash-'))
  const run = await runDyno(['doctor', '--load', '-c 2 -d 3 http://127.0.0.1:$PORT/', '--', process.execPath, fixture('crashes.cjs')], { cwd })
  assert.equal(run.code, 1)
  assert.match(run.stdout, /The app crashed: uncaught Error: boom after 20 requests/)
  const folder = onlyRun(cwd)
  assert.match(readFileSync(join(folder, 'report.html'), 'utf8'), /crashed: uncaught Error: boom after 20 requests/)
  assert.equal(JSON.parse(readFileSync(join(folder, 'doctor.json'), 'utf8')).end.clean, false)
})

test('an app that never listens: no diagnosis, not healthy, and the note says it did not listen; dyno report says the same', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-doctor-never-'))
  const run = await runDyno(['doctor', '--json', '--listen-timeout', '2', '--load', '-c 1 -d 1 http://127.0.0.1:$PORT/', '--', process.execPath, fixture('never-listens.cjs')], { cwd })
  assert.equal(run.code, 1)
  const document = JSON.parse(run.stdout)
  assert.deepEqual(document.diagnoses, [])
  assert.match(document.note, /never listened on a port/)
  const again = await runDyno(['report', onlyRun(cwd)], { cwd })
  assert.equal(again.code, 0, again.stderr)
  assert.doesNotMatch(again.stdout, /healthy/)
  assert.match(again.stdout, /never listened on a port/)
})

test('an app that throws on its first line: its CPU is its own, not the agent\'s start-up', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-doctor-throws-'))
  const run = await runDyno(['doctor', '--json', '--', process.execPath, '-e', 'throw new Error("boom")'], { cwd })
  assert.equal(run.code, 1, run.stderr)
  const { summary, note } = JSON.parse(run.stdout)
  assert.ok(summary, `no summary: ${note}; stderr: ${run.stderr}`)
  // One thread of the app's runs, for a few milliseconds. When the first line began only once the
  // agent's thread was up, the CPU of the agent's start-up fell into those few milliseconds: 150% to
  // 235% of a core.
  assert.ok(summary.cpu.mean < 1, `CPU ${summary.cpu.mean}`)
  // Dead at once, it needs fixing, not a longer load.
  assert.match(JSON.parse(run.stdout).note, /^the app crashed: uncaught Error: boom .* within a second: too little to judge; fix what stopped it first$/)
})

test('an app that calls process.exit: a run folder, its samples up to the exit', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-doctor-exit-'))
  const run = await runDyno(['doctor', '--json', '--', process.execPath, fixture('exits-with-code.cjs')], { cwd })
  assert.equal(run.code, 1)
  const document = JSON.parse(run.stdout)
  assert.equal(document.end.how, 'exited on its own with code 3')
  assert.equal(document.window.source, 'run')
  assert.ok(readFileSync(join(onlyRun(cwd), 'doctor.jsonl'), 'utf8').length > 0)
})

test('a loop held for good: event-loop-blocked from the worker\'s samples, and the app stopped', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-doctor-stuck-'))
  const run = await runDyno(['doctor', '--json', '--stop-grace', '1', '--load', '-c 1 -d 3 -t 1 http://127.0.0.1:$PORT/', '--', process.execPath, fixture('blocks-event-loop.cjs')], { cwd, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  const document = JSON.parse(run.stdout)
  assert.deepEqual(document.diagnoses.map((/** @type {any} */ d) => d.kind), ['event-loop-blocked'])
  assert.ok(document.summary.blockedSamples > 0)
  assert.match(document.end.how, /^stopped by dyno after the load/)
})

test('Ctrl-C ends a run without a load: the report is written, from the requests the app served', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-doctor-sigint-'))
  const run = await runDyno(['doctor', '--', process.execPath, fixture('pid-server.cjs')], {
    cwd,
    env: { PID_FILE: join(cwd, 'server.pid') },
    onSpawn: (child) => signalWhenPrinted(child, 'app listening', 'SIGINT')
  })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /The app stopped with Ctrl-C\./)
  assert.match(run.stdout, /^No diagnosis: |^● /m)
  assert.ok(existsSync(join(onlyRun(cwd), 'report.html')))
})

test('a sample interval of more than half a second: one line, exit code 2, and no app started', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-doctor-interval-'))
  /** @type {[string, RegExp][]} */
  const cases = [['100000', /^dyno doctor: --sample-interval must be at most 500 \(doctor judges each second by the samples that cover it\), not 100000$/], ['0', /must be at least 1, not 0/]]
  for (const [value, message] of cases) {
    const run = await runDyno(['doctor', '--sample-interval', value, '--', process.execPath, fixture('pid-server.cjs')], { cwd })
    assert.equal(run.code, 2)
    assert.match(run.stderr.trim(), message)
  }
  assert.ok(!existsSync(join(cwd, '.dyno')))
})

test('a cluster: the worker that answered the most requests is observed, not the primary that listened first', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-doctor-cluster-'))
  const server = fileURLToPath(new URL('../../../examples/cluster/server.js', import.meta.url))
  const run = await runDyno(['doctor', '--json', '--load', '-c 10 -d 3 http://127.0.0.1:$PORT/', '--', process.execPath, server], { cwd, env: { PORT: '0' }, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  const document = JSON.parse(run.stdout)
  assert.equal(document.process.sharing, 3)
  assert.ok(document.summary.http.finished > 0, 'the observed process answered requests')
  // A worker, whichever of them told dyno first that it listened.
  assert.match(run.stderr, new RegExp(`worker ${document.process.pid} listening`))
})
