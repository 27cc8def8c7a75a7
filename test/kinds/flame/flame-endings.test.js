import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { DYNO, runDyno, signalWhenPrinted } from '../../helpers/cli.js'
import { running } from '../../helpers/processes.js'
import { waitFor } from '../../helpers/wait.js'

const fixture = (/** @type {string} */ name) => fileURLToPath(new URL(`../../fixtures/apps/${name}`, import.meta.url))
const HELLO = fileURLToPath(new URL('../../../examples/hello/server.js', import.meta.url))
const NODE = process.execPath

test('--out that cannot hold folders: one line, exit 2, at once (no spin on /proc)', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-out-'))
  writeFileSync(join(cwd, 'a-file'), 'x')
  for (const out of ['/proc/dyno-nope', '/dev/null', 'a-file', 'a-file/below']) {
    const run = spawnSync(NODE, [DYNO, 'flame', '--out', out, '--', NODE, '-e', '1'], { cwd, encoding: 'utf8', timeout: 20_000, env: { ...process.env, NO_COLOR: '1' } })
    assert.equal(run.signal, null, `--out ${out} did not end by itself`)
    assert.equal(run.status, 2, `--out ${out}: ${run.stderr}`)
    assert.match(run.stderr, /^dyno flame: (--out .* is not a folder|cannot create a run folder in .*); give a/, out)
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr)
  }
})

test('an --on-port command that fails or is not found: said so, with a non-zero exit', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-onport-'))
  const failed = await runDyno(['flame', '--on-port', 'exit 5', '--', NODE, HELLO], { cwd, env: { PORT: '0' } })
  assert.equal(failed.code, 1, failed.stderr)
  assert.match(failed.stderr, /^dyno flame: the --on-port command exited with code 5: "exit 5"$/m)
  assert.match(failed.stdout, /The app stopped by dyno \(the --on-port command failed\)\./)

  const missing = await runDyno(['flame', '--on-port', 'no-such-command-dyno-xyz', '--', NODE, HELLO], { cwd, env: { PORT: '0' } })
  assert.equal(missing.code, 2, missing.stderr)
  assert.match(missing.stderr, /^dyno flame: the --on-port command was not found/m)
})

test('an app that crashes while the --on-port command runs: the command is stopped too', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-onport-crash-'))
  const pidFile = join(cwd, 'command.pid')
  // The command starts a long-lived child of the shell, as a load tool would
  // be; once it has written its pid, its one request makes the app crash.
  const command = `"${NODE}" -e "require('fs').writeFileSync(process.argv[1], String(process.pid)); require('http').get('http://127.0.0.1:' + process.env.PORT + '/').on('error', () => {}); setInterval(() => {}, 1000)" "${pidFile}"`
  const run = await runDyno(['flame', '--on-port', command, '--', NODE, fixture('crashes.cjs')], { cwd, env: { CRASH_AFTER_REQUESTS: '1' } })
  assert.equal(run.code, 1, run.stderr)
  assert.ok(existsSync(pidFile), 'the --on-port command never started')
  const pid = Number(readFileSync(pidFile, 'utf8'))
  await waitFor(() => !running(pid), { what: 'the end of the --on-port command after the run', timeoutMs: 10_000 })
})

test('a detached grandchild in a session of its own does not outlive the run', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-daemon-'))
  const pidFile = join(cwd, 'daemon.pid')
  const run = await runDyno(['flame', '--load', '-a 20 http://127.0.0.1:$PORT/', '--', NODE, fixture('daemonizes.cjs')], { cwd, env: { PID_FILE: pidFile } })
  assert.equal(run.code, 0, run.stderr)
  assert.ok(existsSync(pidFile), 'the detached grandchild never wrote its pid')
  const pid = Number(readFileSync(pidFile, 'utf8'))
  assert.equal(running(pid), false, 'the detached grandchild is still running')
})

test('Ctrl-C during flame --load exits 130 like dyno load; the report is still written', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-sigint-'))
  const run = await runDyno(['flame', '--load', '-d 60 http://127.0.0.1:$PORT/', '--', NODE, HELLO], {
    cwd,
    env: { PORT: '0' },
    // Once the load has started (its header is printed), interrupt.
    onSpawn: (child) => signalWhenPrinted(child, 'Running', 'SIGINT')
  })
  assert.equal(run.code, 130, run.stderr)
  assert.match(run.stdout, /The app stopped with Ctrl-C\./)
  assert.match(run.stdout, /Report: file:/)
})

test('an app that ends on its own prints nothing of dyno\'s (no "Waiting for the debugger")', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-quiet-'))
  const run = await runDyno(['flame', '--', NODE, '-e', 'setTimeout(() => {}, 200)'], { cwd })
  assert.equal(run.code, 0, run.stderr)
  assert.equal(run.stderr, '')
})

test('a --load URL whose $PORT the shell ate is refused; a fixed port that is not the app\'s is warned about', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-port-'))
  const eaten = await runDyno(['flame', '--load', '-d 1 http://127.0.0.1:/', '--', NODE, HELLO], { cwd, env: { PORT: '0' } })
  assert.equal(eaten.code, 2)
  assert.match(eaten.stderr, /^dyno flame: the --load URL http:\/\/127\.0\.0\.1:\/ has an empty port: the shell replaced \$PORT/)
  assert.equal(existsSync(join(cwd, '.dyno')), false)

  // A bare host is enough for dyno load alone, not for the app's URL: refused before anything starts.
  const bare = await runDyno(['flame', '--load', '-d 1 garbage', '--', NODE, HELLO], { cwd, env: { PORT: '0' } })
  assert.equal(bare.code, 2)
  assert.match(bare.stderr, /^dyno flame: the --load URL garbage is not a whole http\(s\) URL; write it like --load '-c 10 http:\/\/127\.0\.0\.1:\$PORT\/'$/m)
  assert.equal(existsSync(join(cwd, '.dyno')), false)

  const fixed = await runDyno(['flame', '--load', '-a 1 -t 1 http://127.0.0.1:9/', '--', NODE, HELLO], { cwd, env: { PORT: '0' } })
  assert.match(fixed.stderr, /dyno: the --load URL goes to port 9, but the app listens on \d+; write \$PORT in the URL/)
})
