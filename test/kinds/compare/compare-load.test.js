/**
 * dyno compare --load on real servers under real load: two versions loaded
 * in alternating rounds, compared round by round.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { runDyno, signalWhenPrinted } from '../../helpers/cli.js'
import { running } from '../../helpers/processes.js'

const WORK = fileURLToPath(new URL('../../fixtures/apps/work-per-request.cjs', import.meta.url))
const CPU_BURN = fileURLToPath(new URL('../../../examples/cpu-burn/', import.meta.url))
const LOAD = '-c 4 -d 1 http://127.0.0.1:$PORT/'

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

test('twice the CPU work per request is found slower, with the right sign, and both apps are stopped', async () => {
  const cwd = tempDir('dyno-compare-')
  const pidLog = join(cwd, 'pids')
  // Eight rounds: another test file may share the machine's cores, and the verdict must hold all the same.
  const run = await runDyno(['compare', '--json', '--load', LOAD, '--rounds', '8', '--a', `node ${WORK} 1`, '--b', `node ${WORK} 2`], { cwd, env: { PID_LOG: pidLog }, timeout: 120_000 })
  assert.equal(run.code, 0, run.stderr)
  const doc = JSON.parse(run.stdout)
  assert.equal(doc.schemaVersion, 1)
  assert.equal(doc.rounds.length, 8)
  assert.deepEqual(doc.rounds.slice(0, 4).map((/** @type {any} */ r) => r.order.join(' ')), ['before after', 'after before', 'before after', 'after before'])
  const { requests, p50 } = byName(run.stdout)
  assert.equal(requests.verdict, 'slower', JSON.stringify(doc.rounds.map((/** @type {any} */ r) => [r.before.requestsPerSecond, r.after.requestsPerSecond])))
  assert.ok(requests.ratio < 0.8 && requests.high < 1, `ratio ${requests.ratio}`)
  assert.equal(p50.verdict, 'slower')
  assert.ok(p50.ratio > 1)
  noneRunning(pidLog)
  // Every load's result stays in the run folder.
  const rounds = JSON.parse(readFileSync(join(doc.folder, 'rounds.json'), 'utf8'))
  assert.equal(rounds.before.length, 8)
  assert.equal(rounds.after.length, 8)
})

test('the same app against itself: the ratio, interval and verdict come from the loads recorded', async () => {
  // How often A/A is called different is a property of the statistics and of
  // the machine (bench/verify.js measures it): under a busy CPU, four rounds of
  // one second can be 30% apart. What this checks is that dyno's decision
  // follows from the loads it recorded.
  const cwd = tempDir('dyno-compare-')
  const run = await runDyno(['compare', '--json', '--load', LOAD, '--rounds', '4', '--a', `node ${WORK} 1`, '--b', `node ${WORK} 1`], { cwd, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  const doc = JSON.parse(run.stdout)
  const { requests } = byName(run.stdout)
  const loads = JSON.parse(readFileSync(join(doc.folder, 'rounds.json'), 'utf8'))
  const perSecond = (/** @type {any} */ load) => load.requests.completed / load.duration
  assert.equal(doc.rounds.length, 4)
  /** @type {number[]} */
  const logRatios = doc.rounds.map((/** @type {any} */ round, /** @type {number} */ i) => {
    assert.ok(Math.abs(round.before.requestsPerSecond - perSecond(loads.before[i])) < 1e-6)
    assert.ok(Math.abs(round.after.requestsPerSecond - perSecond(loads.after[i])) < 1e-6)
    return Math.log(round.after.requestsPerSecond / round.before.requestsPerSecond)
  })
  const geometricMean = Math.exp(logRatios.reduce((s, v) => s + v, 0) / logRatios.length)
  assert.ok(Math.abs(requests.ratio / geometricMean - 1) < 1e-9, `ratio ${requests.ratio}, rounds say ${geometricMean}`)
  assert.ok(requests.low <= requests.ratio && requests.ratio <= requests.high)
  assert.equal(requests.verdict === 'indistinguishable', requests.low <= 1 && requests.high >= 1, `${requests.verdict}: ${requests.low}–${requests.high}`)
  // Over four rounds, noise does not make one copy of an app twice as fast as the other.
  assert.ok(requests.ratio > 0.5 && requests.ratio < 2, `ratio ${requests.ratio}`)
})

test('--against: the working tree against a commit, each from its own checkout, the checkout removed after', async () => {
  const repo = tempDir('dyno-compare-repo-')
  const git = (/** @type {string[]} */ ...args) => execFileSync('git', ['-c', 'user.email=dyno@example.invalid', '-c', 'user.name=dyno', ...args], { cwd: repo, encoding: 'utf8' })
  git('init', '-q')
  writeFileSync(join(repo, 'package.json'), '{ "type": "module" }\n')
  cpSync(join(CPU_BURN, 'server.js'), join(repo, 'server.js'))
  git('add', '-A')
  git('commit', '-qm', 'slow')
  // The fix, not committed: the usual case.
  cpSync(join(CPU_BURN, 'server-fixed.js'), join(repo, 'server.js'))
  const run = await runDyno(['compare', '--load', '-c 2 -d 1 http://127.0.0.1:$PORT/', '--rounds', '3', '--against', 'HEAD', '--', 'node', 'server.js'], { cwd: repo, env: { PORT: '0' }, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /^before {2}HEAD \([0-9a-f]{10}\): node server\.js$/m)
  assert.match(run.stdout, /^after {3}working tree: node server\.js$/m)
  assert.match(run.stdout, /│ Requests\/sec │ .* │ faster +│/)
  assert.match(run.stdout, /^after: [\d.]+x the requests per second \([\d.]+x–[\d.]+x\), p50 [\d.]+x, p99 [\d.]+x; working tree is faster on throughput\.$/m)
  assert.match(run.stderr, /^round 3\/3 +(before|after) /m)
  assert.equal(git('worktree', 'list').trim().split('\n').length, 1)
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
  // b crashes at its 45th request: 30 warm it up, so in the load that counts, in round 1.
  const run = await runDyno(['compare', '--json', '--load', '-c 1 -a 30 http://127.0.0.1:$PORT/', '--rounds', '3', '--a', `node ${WORK} 1`, '--b', `node ${WORK} 1 45`], { cwd, env: { PID_LOG: pidLog }, timeout: 60_000 })
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
  assert.match(run.stdout, /│ Requests\/sec │/)
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
