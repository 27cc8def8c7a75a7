/**
 * --pid on processes that ran before dyno came: attached, observed, and
 * left as they were (the inspector closed, no agent, still answering); and
 * every refusal in one line.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { listeningPorts, portListener } from '../../lib/observe/attach/proc.js'
import { oneLine, runDyno } from '../helpers/cli.js'
import { keepRequesting, startRunningApp } from '../helpers/running-app.js'

const APP = fileURLToPath(new URL('../fixtures/apps/runs-already.cjs', import.meta.url))
// The system picks the inspector's port: tests run side by side, and 9229 may be taken.
const FREE_PORT = '--inspect-port=0'

/**
 * The line of the fixture app that starts with `text`, from 1.
 * @param {string} text
 */
function lineOf (text) {
  return readFileSync(APP, 'utf8').split('\n').findIndex((line) => line.startsWith(text)) + 1
}

/**
 * What dyno's agent has left in the app: the app's /state.
 * @param {number} port
 */
async function stateOf (port) {
  const response = await fetch(`http://127.0.0.1:${port}/state`, { signal: AbortSignal.timeout(10_000) })
  return response.json()
}

/**
 * The app's /state once the agent is out (it leaves a moment after dyno ends), or after 30 s.
 * @param {number} port
 */
async function agentGone (port) {
  let state = await stateOf(port)
  for (const until = Date.now() + 30_000; state.agent && Date.now() < until;) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    state = await stateOf(port)
  }
  return state
}

/** @param {string} file */
function readFileSyncOr (file) {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

/** @param {string} cwd */
function onlyRun (cwd) {
  const runs = readdirSync(join(cwd, '.dyno'))
  assert.equal(runs.length, 1, runs.join(' '))
  return join(cwd, '.dyno', runs[0])
}

/** @param {number} port */
async function answers (port) {
  const response = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(10_000) })
  return response.status
}

test('doctor --pid --load: a diagnosis of a running app, which is left as it was: its ports, no agent, still answering', async (t) => {
  const app = await startRunningApp([FREE_PORT, APP])
  t.after(() => app.stop())
  const portsBefore = listeningPorts(app.pid).map((p) => p.port).sort()
  const stateBefore = await stateOf(app.port)
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-pid-doctor-'))
  const run = await runDyno(['doctor', '--json', '--pid', String(app.pid), '--load', '-c 2 -d 2 http://127.0.0.1:$PORT/'], { cwd, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  const notice = /opened the inspector of pid (\d+) on 127\.0\.0\.1:(\d+) to bring the agent in, and closed it \d+ ms later/.exec(run.stderr)
  assert.ok(notice, run.stderr)
  const inspectorPort = Number(notice[2])
  const document = JSON.parse(run.stdout)
  assert.equal(document.window.source, 'load')
  assert.equal(document.process.pid, app.pid)
  assert.ok(document.diagnoses[0].next.endsWith(`--pid ${app.pid}`), document.diagnoses[0].next)
  assert.ok(document.diagnoses.length > 0)
  assert.match(document.end.how, /^kept running: dyno took its agent out after the load$/)
  const meta = JSON.parse(readFileSync(join(onlyRun(cwd), 'meta.json'), 'utf8'))
  assert.equal(meta.target.pid, app.pid)
  assert.match(meta.title, new RegExp(`^pid ${app.pid}: .*runs-already\\.cjs`))
  assert.deepEqual({ ...meta.attached, openMs: 0 }, { pid: app.pid, inspector: `127.0.0.1:${inspectorPort}`, openedByDyno: true, openMs: 0 })
  // Left as found: the inspector's port refuses, the app's ports are the same, and it answers.
  assert.deepEqual(listeningPorts(app.pid).map((p) => p.port).sort(), portsBefore)
  await assert.rejects(connect(inspectorPort), /ECONNREFUSED/)
  assert.equal(await answers(app.port), 200)
  assert.match(app.stderr(), /Debugger listening on/, 'the process opened its inspector on SIGUSR1')
  // The agent takes itself out just after it told dyno it stopped.
  assert.deepEqual(await agentGone(app.port), stateBefore)
})

test('flame --pid --duration under load from another process: the app\'s hot function, and a second run on the same process', async (t) => {
  const app = await startRunningApp([FREE_PORT, APP])
  t.after(() => app.stop())
  const requests = keepRequesting(app.port)
  t.after(() => requests.stop())
  for (const round of [1, 2]) {
    const cwd = mkdtempSync(join(tmpdir(), 'dyno-pid-flame-'))
    const run = await runDyno(['flame', '--pid', String(app.pid), '--duration', '2'], { cwd, timeout: 60_000 })
    assert.equal(run.code, 0, `round ${round}: ${run.stderr}`)
    // The hottest function is the app's: scoreRequest, or the handler it was inlined into while V8
    // optimized it before dyno came (code optimized then keeps no record of what it inlined).
    const hottest = run.stdout.split('\n').find((line) => /^\s+\d+\.\d+%/.test(line))
    assert.match(hottest ?? '', new RegExp(`(scoreRequest|\\(anonymous\\)).*runs-already\\.cjs:(${lineOf('function scoreRequest')}|${lineOf('http.createServer')})$`), `round ${round}: ${run.stdout}`)
    assert.match(run.stdout, /kept running: dyno took its agent out after 2 s/)
    assert.ok(readdirSync(join(onlyRun(cwd), 'raw')).some((f) => f.endsWith('.cpuprofile')))
  }
  assert.equal(await answers(app.port), 200)
})

test('an idle app, joined by one command after another: each takes its agent out before the next comes', async (t) => {
  const app = await startRunningApp([FREE_PORT, APP])
  t.after(() => app.stop())
  for (const kind of ['doctor', 'flame', 'async', 'doctor']) {
    const cwd = mkdtempSync(join(tmpdir(), `dyno-pid-idle-${kind}-`))
    const run = await runDyno([kind, '--pid', String(app.pid), '--duration', '1'], { cwd, timeout: 60_000 })
    assert.equal(run.code, 0, `${kind}: ${run.stderr}`)
  }
  assert.equal(await answers(app.port), 200)
})

test('heap --pid --load: the leak of a running app, by what holds it', async (t) => {
  const app = await startRunningApp([FREE_PORT, APP])
  t.after(() => app.stop())
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-pid-heap-'))
  const run = await runDyno(['heap', '--json', '--pid', String(app.pid), '--load', '-c 4 -a 600 http://127.0.0.1:$PORT/'], { cwd, timeout: 120_000 })
  assert.equal(run.code, 0, run.stderr)
  const document = JSON.parse(run.stdout)
  const leak = document.leaks.find((/** @type {any} */ l) => l.constructor === 'Session')
  assert.ok(leak, JSON.stringify(document.leaks.map((/** @type {any} */ l) => l.constructor)))
  // Two rounds of 600 requests: a Session each.
  assert.equal(leak.countDelta, 1200)
  assert.equal(leak.holder, '`sessions` array items')
  assert.equal(await answers(app.port), 200)
})

test('heap --pid --duration, no load: what the app\'s own traffic leaves between the snapshot as dyno comes in and the one as it leaves', async (t) => {
  const app = await startRunningApp([FREE_PORT, APP])
  t.after(() => app.stop())
  const requests = keepRequesting(app.port)
  t.after(() => requests.stop())
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-pid-heap-idle-'))
  const run = await runDyno(['heap', '--json', '--pid', String(app.pid), '--duration', '3'], { cwd, timeout: 120_000 })
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`)
  const document = JSON.parse(run.stdout)
  assert.deepEqual(document.snapshots.map((/** @type {any} */ s) => s.label), ['start', 'end'])
  const sessions = document.comparison.find((/** @type {any} */ c) => c.name === 'Session')
  assert.ok(sessions?.countDelta > 0, JSON.stringify(document.comparison.slice(0, 5)))
  assert.ok(document.leaks.some((/** @type {any} */ l) => l.holder === '`sessions` array items'), JSON.stringify(document.leaks))
  assert.equal(await answers(app.port), 200)
})

test('async --pid --load: where a running app\'s requests wait', async (t) => {
  const app = await startRunningApp([FREE_PORT, APP])
  t.after(() => app.stop())
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-pid-async-'))
  const run = await runDyno(['async', '--json', '--pid', String(app.pid), '--load', '-c 2 -a 100 http://127.0.0.1:$PORT/'], { cwd, timeout: 120_000 })
  assert.equal(run.code, 0, run.stderr)
  const document = JSON.parse(run.stdout)
  assert.equal(document.requests.received, 100, JSON.stringify(document.requests))
  assert.ok(document.requests.finished > 0, JSON.stringify(document.requests))
  assert.equal(await answers(app.port), 200)
})

test('the process exits while dyno is in it: what was collected is kept and says so', async (t) => {
  const app = await startRunningApp([FREE_PORT, APP])
  t.after(() => app.stop())
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-pid-exit-'))
  const running = spawn(process.execPath, [fileURLToPath(new URL('../../bin/dyno.js', import.meta.url)), 'doctor', '--json', '--pid', String(app.pid), '--duration', '60'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  running.stdout.setEncoding('utf8').on('data', (d) => { stdout += d })
  running.stderr.setEncoding('utf8').on('data', (d) => { stderr += d })
  while (!/closed it/.test(stderr) && running.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20))
  assert.match(stderr, /closed it/)
  // Some data first, however slowly the machine goes.
  const written = () => existsSync(join(cwd, '.dyno')) && readdirSync(join(cwd, '.dyno')).some((run) => readFileSyncOr(join(cwd, '.dyno', run, 'doctor.jsonl')).length > 0)
  for (const until = Date.now() + 30_000; !written() && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, 50))
  // The app exits as it answers: the answer may be cut short.
  await fetch(`http://127.0.0.1:${app.port}/exit`).then((r) => r.text()).catch(() => {})
  const [code] = await once(running, 'exit')
  const document = JSON.parse(stdout)
  assert.equal(document.end.how, 'exited on its own with code 0')
  // It went before the 60 s were up: the data is kept, and the run failed.
  assert.equal(code, 1, stderr)
  assert.match(stderr, new RegExp(`^dyno doctor: pid ${app.pid} exited on its own with code 0$`, 'm'))
  assert.ok(readFileSync(join(onlyRun(cwd), 'doctor.jsonl'), 'utf8').length > 0)
})

test('a cluster\'s primary is refused before its inspector opens, and a parent whose child serves names the child', async (t) => {
  const PARENT = fileURLToPath(new URL('../fixtures/apps/parent-of-server.cjs', import.meta.url))
  const primary = await startRunningApp(['--inspect-port=0', PARENT], { env: { MODE: 'cluster' } })
  t.after(() => primary.stop())
  const worker = readFileSync(`/proc/${primary.pid}/task/${primary.pid}/children`, 'utf8').trim()
  const refused = await runDyno(['doctor', '--pid', String(primary.pid), '--duration', '1'], { timeout: 60_000 })
  assert.equal(refused.code, 2, refused.stderr)
  assert.equal(oneLine(refused.stderr), `dyno doctor: pid ${primary.pid} is a cluster's primary: its workers serve the requests, and Node opens every worker's inspector when the primary's opens (and leaves them open); join a worker instead: --pid ${worker}`)
  assert.doesNotMatch(primary.stderr(), /Debugger listening/)

  const parent = await startRunningApp([FREE_PORT, PARENT])
  t.after(() => parent.stop())
  const child = readFileSync(`/proc/${parent.pid}/task/${parent.pid}/children`, 'utf8').trim()
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-pid-parent-'))
  const run = await runDyno(['doctor', '--pid', String(parent.pid), '--load', '-c 1 -d 1 http://127.0.0.1:$PORT/'], { cwd, timeout: 60_000 })
  assert.equal(run.code, 2, run.stderr)
  assert.match(run.stderr, new RegExp(`^dyno doctor: pid ${parent.pid} serves no TCP port itself; its Node\\.js child processes ${child} may: join one of them with --pid$`, 'm'))
  assert.equal(await answers(parent.port), 200)
})

test('a process whose event loop is held: dyno says its inspector closes on the loop\'s next turn, doctor says it is blocked, and it does close', async (t) => {
  const app = await startRunningApp([FREE_PORT, APP])
  t.after(() => app.stop())
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-pid-held-'))
  const release = join(cwd, 'release')
  t.after(() => writeFileSync(release, ''))
  const held = fetch(`http://127.0.0.1:${app.port}/hold?${encodeURIComponent(release)}`).then((r) => r.text())
  while (!existsSync(`${release}.held`)) await new Promise((resolve) => setTimeout(resolve, 20))
  const run = await runDyno(['doctor', '--pid', String(app.pid), '--duration', '1'], { cwd, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  const warning = /^dyno: opened the inspector of pid \d+ on 127\.0\.0\.1:(\d+) to bring the agent in; it is still open, as the app's event loop has not turned to close it: it closes on the loop's next turn \(or restart the app\)$/m.exec(run.stderr)
  assert.ok(warning, run.stderr)
  assert.match(run.stdout, new RegExp(`No diagnosis: pid ${app.pid} took no sample while dyno was in: its event loop did not turn, so it is blocked; dyno flame --pid ${app.pid} shows where it is held`))
  writeFileSync(release, '')
  assert.equal(await held, 'released')
  const inspectorPort = Number(warning[1])
  for (const until = Date.now() + 30_000; Date.now() < until && listeningPorts(app.pid).some((p) => p.port === inspectorPort);) await new Promise((resolve) => setTimeout(resolve, 50))
  await assert.rejects(connect(inspectorPort), /ECONNREFUSED/)
  assert.equal(await answers(app.port), 200)
})

test('a process held in native code as dyno leaves: the run ends, says so, and the agent leaves once the loop turns', async (t) => {
  const app = await startRunningApp([FREE_PORT, APP])
  t.after(() => app.stop())
  const stateBefore = await stateOf(app.port)
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-pid-native-'))
  const release = join(cwd, 'release')
  t.after(() => writeFileSync(release, ''))
  const running = spawn(process.execPath, [fileURLToPath(new URL('../../bin/dyno.js', import.meta.url)), 'flame', '--pid', String(app.pid), '--duration', '1'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  running.stderr.setEncoding('utf8').on('data', (d) => { stderr += d })
  const ended = once(running, 'exit')
  while (!/closed it/.test(stderr) && running.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20))
  // Held before the second is up: the profiler cannot stop until the loop is free.
  const held = fetch(`http://127.0.0.1:${app.port}/hold-native?${encodeURIComponent(release)}`).then((r) => r.text())
  while (!existsSync(`${release}.held`)) await new Promise((resolve) => setTimeout(resolve, 20))
  const [code] = await ended
  assert.equal(code, 1, stderr)
  assert.match(stderr, /^dyno flame: no profile was written: the app kept running with its event loop held, so dyno's agent could not finish: it leaves once the loop turns/m)
  writeFileSync(release, '')
  assert.equal(await held, 'released')
  assert.deepEqual(await agentGone(app.port), stateBefore)
})

test('an agent that never says hello: dyno gives up in one line, closes the inspector, and asks the agent to leave', async (t) => {
  const app = await startRunningApp([FREE_PORT, APP], { env: { NO_WORKERS: '1' } })
  t.after(() => app.stop())
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-pid-no-hello-'))
  const run = await runDyno(['doctor', '--pid', String(app.pid), '--duration', '1'], { cwd, timeout: 60_000 })
  assert.equal(run.code, 1, run.stderr)
  assert.equal(oneLine(run.stderr), `dyno doctor: pid ${app.pid} did not answer within 10 s: its main thread may be blocked (dyno doctor --pid shows it once the loop turns again)`)
  const port = Number(/Debugger listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(app.stderr())?.[1])
  await assert.rejects(connect(port), /ECONNREFUSED/)
  assert.equal(await answers(app.port), 200)
})

test('a stopped process is refused before it is signalled: continued, it opens no inspector', async (t) => {
  const app = await startRunningApp([FREE_PORT, APP])
  t.after(() => app.stop())
  process.kill(app.pid, 'SIGSTOP')
  t.after(() => { if (app.child.exitCode === null && app.child.signalCode === null) process.kill(app.pid, 'SIGCONT') })
  // SIGSTOP takes effect at once, but /proc may say so a moment later.
  for (const until = Date.now() + 10_000; !/\) T /.test(readFileSync(`/proc/${app.pid}/stat`, 'latin1')) && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, 20))
  const run = await runDyno(['doctor', '--pid', String(app.pid), '--duration', '1'], { timeout: 60_000 })
  assert.equal(run.code, 2, run.stderr)
  assert.equal(oneLine(run.stderr), `dyno doctor: pid ${app.pid} is stopped by a signal (SIGSTOP, Ctrl-Z): continue it first (kill -CONT ${app.pid}, or detach the debugger)`)
  process.kill(app.pid, 'SIGCONT')
  assert.equal(await answers(app.port), 200)
  assert.doesNotMatch(app.stderr(), /Debugger listening/)
})

test('refusals: no such process, not Node, someone else\'s inspector, a taken port, flags that forbid it, and flags that clash', async (t) => {
  const gone = spawn(process.execPath, ['-e', ''])
  await once(gone, 'exit')
  /** @type {[string[], number, RegExp][]} */
  const cases = []
  cases.push([['doctor', '--pid', String(gone.pid)], 2, /^no process has pid \d+; find the app's with: pgrep -af node$/])
  const sleeper = spawn('sleep', ['30'])
  t.after(() => sleeper.kill())
  cases.push([['doctor', '--pid', String(sleeper.pid)], 2, /^pid \d+ runs \S*sleep \(sleep 30\), not Node\.js; give the pid of the node process/])
  cases.push([['doctor', '--pid', '12', '--', 'node', 'app.js'], 2, /^--pid observes a process that already runs; give it or a command after --, not both$/])
  cases.push([['doctor', '--duration', '5', '--', 'node', 'app.js'], 2, /^--duration is for --pid without --load/])
  cases.push([['doctor', '--pid', '12', '--duration', '5', '--load', 'http://127.0.0.1:$PORT/'], 2, /^--duration is for --pid without --load or --on-port/])
  cases.push([['doctor', '--pid', '0'], 2, /--pid/])

  const opened = await startRunningApp(['--inspect=127.0.0.1:0', APP])
  t.after(() => opened.stop())
  cases.push([['doctor', '--pid', String(opened.pid)], 2, /^pid \d+ already has its inspector open \(--inspect\), maybe for someone else's debugger; add --use-open-inspector/])

  const holder = net.createServer().listen(0, '127.0.0.1')
  await once(holder, 'listening')
  t.after(() => holder.close())
  const heldPort = /** @type {net.AddressInfo} */ (holder.address()).port
  const blocked = await startRunningApp([`--inspect-port=${heldPort}`, APP])
  t.after(() => blocked.stop())
  cases.push([['doctor', '--pid', String(blocked.pid)], 2, new RegExp(`^port ${heldPort}, where pid \\d+ would open its inspector, is taken by pid ${process.pid}; .*--inspect-port=`)])

  const permission = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission'
  // Node 26's permission model covers the network too.
  const allowNet = process.allowedNodeEnvironmentFlags.has('--allow-net') ? ['--allow-net'] : []
  const fenced = await startRunningApp([permission, '--allow-fs-read=*', ...allowNet, APP])
  t.after(() => fenced.stop())
  cases.push([['doctor', '--pid', String(fenced.pid)], 2, new RegExp(`^pid \\d+ runs with ${permission}, under which it opens no inspector on SIGUSR1`)])
  if (process.allowedNodeEnvironmentFlags.has('--disable-sigusr1')) {
    const deaf = await startRunningApp(['--disable-sigusr1', APP])
    t.after(() => deaf.stop())
    cases.push([['doctor', '--pid', String(deaf.pid)], 2, /^pid \d+ runs with --disable-sigusr1/])
  }
  for (const [args, code, message] of cases) {
    const run = await runDyno(args)
    assert.equal(run.code, code, `${args.join(' ')}: ${run.stderr}`)
    assert.match(oneLine(run.stderr).replace(/^dyno (doctor|heap): /, ''), message, args.join(' '))
  }
  // Each process refused is as it was: nothing was signalled.
  for (const app of [opened, blocked, fenced]) assert.equal(await answers(app.port), 200)
})

test('a process another dyno run observes: refused in one line, and that run goes on', async (t) => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-pid-observed-'))
  const first = spawn(process.execPath, [fileURLToPath(new URL('../../bin/dyno.js', import.meta.url)), 'doctor', '--', process.execPath, FREE_PORT, APP], { cwd, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] })
  t.after(() => first.kill('SIGKILL'))
  let output = ''
  first.stdout.setEncoding('utf8').on('data', (d) => { output += d })
  while (!/listening (\d+)/.test(output)) await new Promise((resolve) => setTimeout(resolve, 20))
  const pid = /** @type {{ pid: number }} */ (portListener(Number(/listening (\d+)/.exec(output)?.[1]))).pid
  const run = await runDyno(['flame', '--pid', String(pid), '--duration', '1'], { cwd: mkdtempSync(join(tmpdir(), 'dyno-pid-second-')) })
  assert.equal(run.code, 2, run.stderr)
  assert.match(oneLine(run.stderr), new RegExp(`^dyno flame: pid ${pid} is being observed by another dyno run`))
  first.kill('SIGINT')
  const [code] = await once(first, 'exit')
  assert.equal(code, 0)
  assert.equal(JSON.parse(readFileSync(join(onlyRun(cwd), 'meta.json'), 'utf8')).end.how, 'stopped with Ctrl-C')
})

test('--use-open-inspector: through the inspector someone opened, which stays open', async (t) => {
  const app = await startRunningApp(['--inspect=127.0.0.1:0', APP])
  t.after(() => app.stop())
  const before = listeningPorts(app.pid).map((p) => p.port).sort()
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-pid-open-'))
  const run = await runDyno(['doctor', '--json', '--use-open-inspector', '--pid', String(app.pid), '--load', '-c 1 -a 50 http://127.0.0.1:$PORT/'], { cwd, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stderr, /through the inspector already open on 127\.0\.0\.1:\d+, and left that open/)
  assert.deepEqual(listeningPorts(app.pid).map((p) => p.port).sort(), before)
})

/** @param {number} port */
function connect (port) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => { socket.destroy(); resolve(undefined) })
    socket.once('error', reject)
  })
}
