import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { runDyno, signalWhenPrinted } from '../../helpers/cli.js'
import { running } from '../../helpers/processes.js'

const fixture = (/** @type {string} */ name) => fileURLToPath(new URL(`../../fixtures/apps/${name}`, import.meta.url))

/** @param {string} cwd */
function onlyRun (cwd) {
  const runs = readdirSync(join(cwd, '.dyno'))
  assert.equal(runs.length, 1)
  return join(cwd, '.dyno', runs[0])
}

test('an app whose event loop is blocked still gets its profile, and is stopped', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-blocked-'))
  // A run that waited on the blocked loop would never end: runDyno's timeout fails it.
  const run = await runDyno(['flame', '--load', '-c 1 -d 2 -t 1 http://127.0.0.1:$PORT/', '--', process.execPath, fixture('blocks-event-loop.cjs')], { cwd })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /Hottest functions \(self time\)\n +\d+\.\d% .*spinForever/)
  assert.match(run.stdout, /The app stopped by dyno after the load\./)
  assert.ok(existsSync(join(onlyRun(cwd), 'flamegraph.html')))
})

test('flame --load on an app that answers nothing: the profile still, and exit 1 with what was still waiting, as dyno load says', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-blocked-'))
  const run = await runDyno(['flame', '--load', '-c 2 -d 1 -t 5 http://127.0.0.1:$PORT/', '--', process.execPath, fixture('blocks-event-loop.cjs')], { cwd, env: { BLOCK_AT_ONCE: '1' } })
  assert.equal(run.code, 1, run.stderr)
  assert.match(run.stderr, /^dyno flame: the target answered none of the 2 requests sent: 2 were still waiting for an answer when the run ended$/m)
  assert.match(run.stdout, /2 requests were still waiting for an answer when the run ended/)
  assert.match(run.stdout, /Hottest functions \(self time\)\n +\d+\.\d% .*spinForever/)
  assert.match(run.stdout, /The app stopped by dyno \(the load failed\)\./)
})

test('a launcher that starts the server and exits: the server is profiled, then stopped', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-launcher-'))
  const pidFile = join(cwd, 'server.pid')
  // The server listens well after the launcher has exited: the app is still running.
  const run = await runDyno(['flame', '--stop-grace', '0.5', '--load', '-a 50 http://127.0.0.1:$PORT/', '--', process.execPath, fixture('launcher.cjs')], { cwd, env: { PID_FILE: pidFile, IGNORE_SIGTERM: '1', LISTEN_DELAY_MS: '1500' } })
  assert.equal(run.code, 0, run.stderr)
  const serverPid = Number(readFileSync(pidFile, 'utf8'))
  // The server ignores SIGTERM: dyno escalated, and returned only once it was gone.
  assert.equal(running(serverPid), false, 'the server is still running')
  const meta = JSON.parse(readFileSync(join(onlyRun(cwd), 'meta.json'), 'utf8'))
  assert.equal(meta.process.pid, serverPid)
  assert.equal(meta.load.requests.completed, 50)
})

test('a launcher that listens on a unix socket of its own before it starts the server: the server is the one profiled', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-launcher-'))
  const pidFile = join(cwd, 'server.pid')
  const run = await runDyno(['flame', '--load', '-a 20 http://127.0.0.1:$PORT/', '--', process.execPath, fixture('launcher.cjs')], { cwd, env: { PID_FILE: pidFile, IPC_SOCKET: join(cwd, 'ipc.sock') } })
  assert.equal(run.code, 0, run.stderr)
  const meta = JSON.parse(readFileSync(join(onlyRun(cwd), 'meta.json'), 'utf8'))
  assert.equal(meta.process.pid, Number(readFileSync(pidFile, 'utf8')))
  assert.equal(meta.load.requests.completed, 20)
})

test('SIGTERM to dyno ends the run like Ctrl-C, and the report says which it was: report written, app stopped', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-sigterm-'))
  const pidFile = join(cwd, 'server.pid')
  const run = await runDyno(['flame', '--', process.execPath, fixture('pid-server.cjs')], {
    cwd,
    env: { PID_FILE: pidFile },
    onSpawn: (child) => signalWhenPrinted(child, 'app listening', 'SIGTERM')
  })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /The app stopped by SIGTERM to dyno\./)
  assert.equal(running(Number(readFileSync(pidFile, 'utf8'))), false)
  assert.ok(existsSync(join(onlyRun(cwd), 'flamegraph.html')))
})
