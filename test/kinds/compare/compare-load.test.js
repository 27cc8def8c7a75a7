/**
 * dyno compare --load on real servers under real load: two versions loaded
 * in alternating rounds, compared round by round.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, renameSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { runDyno, signalWhenPrinted } from '../../helpers/cli.js'
import { assertFollowsFromLoads, assertStopFollows } from '../../helpers/compare.js'
import { running } from '../../helpers/processes.js'
import { cpuBurnRepository } from '../../helpers/repositories.js'

const WORK = fileURLToPath(new URL('../../fixtures/apps/work-per-request.cjs', import.meta.url))
const CPU_BURN = fileURLToPath(new URL('../../../examples/cpu-burn/', import.meta.url))
const LOAD = '-c 4 -d 0.5 http://127.0.0.1:$PORT/'

/** @param {string} prefix */
const tempDir = (prefix) => mkdtempSync(join(tmpdir(), prefix))

/** @param {string} pidLog */
function noneRunning (pidLog) {
  const pids = readFileSync(pidLog, 'utf8').trim().split('\n').map(Number)
  assert.ok(pids.length >= 2)
  for (const pid of pids) assert.equal(running(pid), false, `pid ${pid} is still running`)
}

/** @param {string} stdout */
const byName = (stdout) => Object.fromEntries(JSON.parse(stdout).comparisons.map((/** @type {any} */ c) => [c.name, c]))

test('twice the CPU work per request: alternating rounds, a verdict that follows from the loads recorded, and both apps stopped', async () => {
  // Whether one short run finds it slower depends on how busy the machine is: test/timing/compare.test.js.
  const cwd = tempDir('dyno-compare-')
  const pidLog = join(cwd, 'pids')
  const run = await runDyno(['compare', '--json', '--load', LOAD, '--rounds', '4', '--a', `node ${WORK} 1`, '--b', `node ${WORK} 2`], { cwd, env: { PID_LOG: pidLog }, timeout: 120_000 })
  assert.equal(run.code, 0, run.stderr)
  const doc = JSON.parse(run.stdout)
  assert.equal(doc.schemaVersion, 1)
  assert.deepEqual(doc.rounds.map((/** @type {any} */ r) => r.order.join(' ')), ['before after', 'after before', 'before after', 'after before'])
  assertFollowsFromLoads(doc, 4)
  const { p50 } = byName(run.stdout)
  assert.equal(p50.verdict, p50.low > 1 ? 'slower' : p50.high < 1 ? 'faster' : 'indistinguishable', `p50 ${p50.verdict}: ${p50.low}–${p50.high}`)
  noneRunning(pidLog)
})

test('the same app against itself: the ratio, interval and verdict come from the loads recorded', async () => {
  // How often A/A is called different is a property of the statistics and of
  // the machine (bench/verify.js measures it): under a busy CPU, four rounds of
  // one second can be 30% apart. What this checks is that dyno's decision
  // follows from the loads it recorded.
  const cwd = tempDir('dyno-compare-')
  const run = await runDyno(['compare', '--json', '--load', LOAD, '--rounds', '4', '--a', `node ${WORK} 1`, '--b', `node ${WORK} 1`], { cwd, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  assertFollowsFromLoads(JSON.parse(run.stdout), 4)
})

test('--against: the working tree against a commit, each from its own checkout, the checkout removed after', async () => {
  const repo = cpuBurnRepository()
  const run = await runDyno(['compare', '--load', '-c 2 -d 1 http://127.0.0.1:$PORT/', '--rounds', '3', '--against', 'HEAD', '--', 'node', 'server.js'], { cwd: repo, env: { PORT: '0' }, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /^before {2}HEAD \([0-9a-f]{10}\): node server\.js$/m)
  assert.match(run.stdout, /^after {3}working tree: node server\.js$/m)
  // The table and the sentence give one verdict; which, a short run on a busy machine may not tell (test/timing/compare.test.js).
  const table = /│ Requests\/sec +│ .* │ (faster|slower|indistinguishable) +│/.exec(run.stdout)
  assert.ok(table, run.stdout)
  const sentence = /^after: [\d.]+x the requests per second \([\d.]+x–[\d.]+x\), p50 [\d.]+x, p99 [\d.]+x(, CPU per request [\d.]+x)?; (working tree is (faster|slower) on throughput|the two cannot be told apart on throughput at 95%)\.$/m.exec(run.stdout)
  assert.ok(sentence, run.stdout)
  assert.equal(sentence[3] ?? 'indistinguishable', table[1])
  assert.match(run.stderr, /^round 3\/3 +(before|after) /m)
  assert.equal(execFileSync('git', ['worktree', 'list'], { cwd: repo, encoding: 'utf8' }).trim().split('\n').length, 1)
})

test('--fresh starts each app anew for each of its loads', async () => {
  const cwd = tempDir('dyno-compare-')
  const pidLog = join(cwd, 'pids')
  const run = await runDyno(['compare', '--json', '--fresh', '--load', '-c 2 -a 20 http://127.0.0.1:$PORT/', '--rounds', '2', '--a', `node ${WORK} 1`, '--b', `node ${WORK} 1`], { cwd, env: { PID_LOG: pidLog }, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  const doc = JSON.parse(run.stdout)
  assert.equal(doc.rounds.length, 2)
  assert.deepEqual(readdirSync(doc.folder).filter((f) => /^(before|after)-\d$/.test(f)).sort(), ['after-1', 'after-2', 'before-1', 'before-2'])
  assert.equal(readFileSync(pidLog, 'utf8').trim().split('\n').length, 4)
  noneRunning(pidLog)
})

test('an app that crashes during its rounds: exit 1, which one and when, nothing left running', async () => {
  const cwd = tempDir('dyno-compare-')
  const pidLog = join(cwd, 'pids')
  // b crashes at its 33rd request: warm-ups of 3 requests take 6 to 30, so in the load that counts, in round 1.
  const run = await runDyno(['compare', '--json', '--load', '-c 1 -a 30 http://127.0.0.1:$PORT/', '--rounds', '3', '--a', `node ${WORK} 1`, '--b', `node ${WORK} 1 33`], { cwd, env: { PID_LOG: pidLog }, timeout: 60_000 })
  assert.equal(run.code, 1, run.stderr)
  assert.match(run.stderr, /^dyno compare: b: the app crashed: uncaught Error: crashed on purpose \(exit code 1\) during round 1; the rounds before it are compared$/m)
  const doc = JSON.parse(run.stdout)
  assert.equal(doc.rounds.length, 0)
  noneRunning(pidLog)
})

test('mistakes get one line and exit 2', async () => {
  const cwd = tempDir('dyno-compare-')
  /** @param {string[]} args @param {RegExp} message */
  const mistake = async (args, message) => {
    const run = await runDyno(['compare', ...args], { cwd })
    assert.equal(run.code, 2, run.stderr)
    assert.match(run.stderr, message)
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr)
  }
  await mistake(['--load', LOAD, '--', 'node', 'x.js'], /name them with --against <git-ref> -- <command>, or --a '<command>' --b '<command>'/)
  await mistake(['--load', LOAD, '--a', 'node x.js'], /--b is missing/)
  await mistake(['--load', LOAD, '--a', 'node x.js', '--b', 'node y.js', '--against', 'HEAD'], /--against and --a\/--b both name the versions/)
  await mistake(['--load', LOAD, '--against', 'HEAD', '--', 'node', 'x.js'], /is not inside a git repository/)
  await mistake(['--load', LOAD, '--rounds', '1', '--a', 'node x.js', '--b', 'node y.js'], /--rounds/)
  await mistake(['--load', LOAD, '--rounds', '4', '--precision', '1', '--a', 'node x.js', '--b', 'node y.js'], /--rounds fixes how many rounds run, and --precision is for rounds that go on until the answer is known/)
  await mistake(['--load', LOAD, '--precision', '0', '--a', 'node x.js', '--b', 'node y.js'], /--precision/)
  await mistake(['--load', LOAD, '--fail-if-slower', '150', '--a', 'node x.js', '--b', 'node y.js'], /--fail-if-slower/)
  await mistake(['--load', LOAD, '--max-time', 'soon', '--a', 'node x.js', '--b', 'node y.js'], /--max-time/)
  await mistake(['--fresh', 'a.json', 'b.json'], /--fresh goes with --load/)
  await mistake(['--load', '-c 1 -d 1 http://127.0.0.1:3999/', '--a', `node ${WORK}`, '--b', `node ${WORK}`], /the --load URL http:\/\/127\.0\.0\.1:3999\/ names no \$PORT: the two versions listen on ports of their own/)
  await mistake(['--load', LOAD, '--a', 'nosuchcommand-dyno', '--b', `node ${WORK}`], /^dyno compare: a: command not found: nosuchcommand-dyno/m)
  assert.equal(existsSync(join(cwd, '.dyno')) ? readdirSync(join(cwd, '.dyno')).filter((f) => f.endsWith('-compare')).length : 0, 0)
})

test('a version that never listens: exit 1, named, and the other stopped', async () => {
  const cwd = tempDir('dyno-compare-')
  const pidLog = join(cwd, 'pids')
  const run = await runDyno(['compare', '--load', LOAD, '--a', 'node missing.js', '--b', `node ${WORK}`], { cwd, env: { PID_LOG: pidLog }, timeout: 60_000 })
  assert.equal(run.code, 1, run.stderr)
  assert.match(run.stderr, /^dyno compare: a \(round 1\): the app exited with code 1 before it listened on a port$/m)
  for (const pid of readFileSync(pidLog, 'utf8').trim().split('\n').map(Number)) assert.equal(running(pid), false)
})

test('Ctrl-C ends the run: the rounds done are compared, both apps stopped, exit 130', async () => {
  const cwd = tempDir('dyno-compare-')
  const pidLog = join(cwd, 'pids')
  const run = await runDyno(['compare', '--load', LOAD, '--rounds', '20', '--a', `node ${WORK} 1`, '--b', `node ${WORK} 1`], {
    cwd,
    env: { PID_LOG: pidLog },
    timeout: 60_000,
    onSpawn: (child) => signalWhenPrinted(child, 'round 2/20', 'SIGINT')
  })
  assert.equal(run.code, 130, run.stderr)
  assert.match(run.stdout, /^[123] of 20 rounds compared/m)
  assert.match(run.stdout, /│ Requests\/sec +│/)
  noneRunning(pidLog)
})

const SHORT = '-c 2 -d 0.2 http://127.0.0.1:$PORT/'

test('without --rounds, rounds go on until the answer is known; --fail-if-slower fails four times the work with exit 3 and one line', async () => {
  const cwd = tempDir('dyno-compare-')
  const pidLog = join(cwd, 'pids')
  const slow = await runDyno(['compare', '--json', '--load', SHORT, '--max-time', '90', '--fail-if-slower', '5', '--a', `node ${WORK} 1`, '--b', `node ${WORK} 4`], { cwd, env: { PID_LOG: pidLog }, timeout: 150_000 })
  assert.equal(slow.code, 3, slow.stderr)
  assert.match(slow.stderr, /^dyno compare: slower by more than 5% with 95% confidence: requests\/sec 0\.\d+x \(0\.\d+x–0\.\d+x\)$/m)
  const doc = JSON.parse(slow.stdout)
  assert.equal(doc.settings.rounds, null)
  assert.equal(doc.gate.failed, true)
  // Why the rounds stopped, the ratio and its verdict follow from the loads recorded.
  assertFollowsFromLoads(doc, doc.rounds.length)
  assertStopFollows(doc)
  const { requests, cpu } = byName(slow.stdout)
  assert.equal(requests.verdict, 'slower')
  assert.ok(requests.detectable > 0, JSON.stringify(requests))
  // The app's CPU time per request, read from the OS, with an interval of its own.
  if (process.platform === 'linux') assert.ok(cpu.ratio > 1 && cpu.low <= cpu.ratio && cpu.ratio <= cpu.high, JSON.stringify(cpu))
  noneRunning(pidLog)
})

test('a version that gets slower as the run goes: the gate fails it', async () => {
  const cwd = tempDir('dyno-compare-')
  // b does 20% more work at each start, so at each round.
  const b = `node ${WORK} 1 0 starts=${join(cwd, 'starts')} slower-per-start=1.2`
  const run = await runDyno(['compare', '--json', '--load', SHORT, '--max-time', '120', '--fail-if-slower', '5', '--a', `node ${WORK} 1`, '--b', b], { cwd, timeout: 180_000 })
  assert.equal(run.code, 3, run.stderr)
  const doc = JSON.parse(run.stdout)
  assert.equal(doc.gate.failed, true)
  assertStopFollows(doc)
})

test('a version that crashes in round 7: exit 1, named with its round, the six rounds before compared, nothing left running', async () => {
  const cwd = tempDir('dyno-compare-')
  const pidLog = join(cwd, 'pids')
  const b = `node ${WORK} 1 0 starts=${join(cwd, 'starts')} crash-on-start=7`
  const run = await runDyno(['compare', '--json', '--load', SHORT, '--max-time', '120', '--a', `node ${WORK} 1`, '--b', b], { cwd, env: { PID_LOG: pidLog }, timeout: 180_000 })
  assert.equal(run.code, 1, run.stderr)
  assert.match(run.stderr, /^dyno compare: b: the app crashed: uncaught Error: crashed on purpose \(exit code 1\) (during|between the loads of) round 7( \(warming up\))?; the rounds before it are compared$/m)
  const doc = JSON.parse(run.stdout)
  assert.equal(doc.rounds.length, 6)
  assert.equal(doc.stopped, null)
  noneRunning(pidLog)
})

test('a version that never answers: exit 1 after three silent rounds, not at --max-time, named with the first', async () => {
  const cwd = tempDir('dyno-compare-')
  const hangs = fileURLToPath(new URL('../../fixtures/apps/async-hangs.cjs', import.meta.url))
  const run = await runDyno(['compare', '--json', '--load', SHORT, '--a', `node ${WORK} 1`, '--b', `node ${hangs}`], { cwd, timeout: 60_000 })
  assert.equal(run.code, 1, run.stderr)
  assert.match(run.stderr, /^dyno compare: b: the app answered no request from round 1 on; the rounds before it are compared$/m)
  const doc = JSON.parse(run.stdout)
  assert.deepEqual(doc.comparisons, [])
  assert.equal(doc.stopped, null)
})

test('a version that answers nothing in one round (a cold start on a busy machine, say) is still compared on the others', async () => {
  const cwd = tempDir('dyno-compare-')
  const b = `node ${WORK} 1 0 starts=${join(cwd, 'starts')} mute-on-start=1`
  const run = await runDyno(['compare', '--json', '--load', SHORT, '--rounds', '4', '--a', `node ${WORK} 1`, '--b', b], { cwd, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  const doc = JSON.parse(run.stdout)
  // The silent round is left out; the three others are compared, CPU per request included.
  assert.equal(doc.rounds.length, 3)
  assert.ok(doc.rounds.every((/** @type {any} */ r) => r.after.completed > 0))
  assert.ok(doc.comparisons.some((/** @type {any} */ c) => c.name === 'cpu'), JSON.stringify(doc.comparisons.map((/** @type {any} */ c) => c.name)))
})

test('Ctrl-C while rounds go on until the answer is known: the rounds done are compared, both apps stopped, exit 130', async () => {
  const cwd = tempDir('dyno-compare-')
  const pidLog = join(cwd, 'pids')
  const run = await runDyno(['compare', '--load', SHORT, '--a', `node ${WORK} 1`, '--b', `node ${WORK} 1`], {
    cwd,
    env: { PID_LOG: pidLog },
    timeout: 60_000,
    onSpawn: (child) => signalWhenPrinted(child, 'after round 2:', 'SIGINT')
  })
  assert.equal(run.code, 130, run.stderr)
  assert.match(run.stdout, /^[234] of [234] rounds compared in [\d.]+ s,/m)
  noneRunning(pidLog)
})

test('--flame: the CPU differential of the CPU-burning example and its fix names the hot function as the big win', async () => {
  const cwd = tempDir('dyno-compare-')
  const run = await runDyno(['compare', '--flame', '--load', '-c 2 -d 1 http://127.0.0.1:$PORT/', '--rounds', '2', '--a', `node ${join(CPU_BURN, 'server.js')}`, '--b', `node ${join(CPU_BURN, 'server-fixed.js')}`], { cwd, timeout: 90_000 })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /^CPU per request, before → after \(self time\)\n +computePrimes +[\d.]+ ms → +[\d.]+ ms per request/m)
  // The run folder's compare.json holds the differential, as --json does.
  const [name] = readdirSync(join(cwd, '.dyno')).filter((f) => f.endsWith('-compare'))
  const doc = JSON.parse(readFileSync(join(cwd, '.dyno', name, 'compare.json'), 'utf8'))
  const [top] = doc.flame.diff.functions
  assert.equal(top.name, 'computePrimes')
  assert.ok(top.change < 0 && top.after < top.before / 10, JSON.stringify(top))
  assert.ok(existsSync(doc.flame.html))

  // dyno report renders the folder again: the same table, sentence and differential.
  const again = await runDyno(['report', join(cwd, '.dyno', name)], { cwd })
  assert.equal(again.code, 0, again.stderr)
  const summary = (/** @type {string} */ text) => text.slice(text.indexOf('before  '))
  assert.equal(summary(again.stdout), summary(run.stdout))
  const side = await runDyno(['report', join(cwd, '.dyno', name, 'before-1')], { cwd })
  assert.equal(side.code, 2)
  assert.match(side.stderr, /holds no readable compare\.json: give the folder dyno compare --load wrote/)

  // Moved elsewhere, the folder's report names its files where they are now.
  const moved = join(tempDir('dyno-compare-moved-'), name)
  renameSync(join(cwd, '.dyno', name), moved)
  const there = await runDyno(['report', moved], { cwd })
  assert.equal(there.code, 0, there.stderr)
  assert.ok(!there.stdout.includes(join(cwd, '.dyno')), there.stdout)
  assert.match(there.stdout, new RegExp(`Differential flamegraph: ${moved.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
})
