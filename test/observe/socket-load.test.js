import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { runDyno } from '../helpers/cli.js'

const APP = fileURLToPath(new URL('../fixtures/apps/socket-server.cjs', import.meta.url))

/** A folder for the run and the app's socket. @param {import('node:test').TestContext} t */
function folder (t) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-sock-app-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

test('--load \'--socket $SOCKET …\' loads the socket the app listens on, not the TCP port it opened first', async (t) => {
  const cwd = folder(t)
  const run = await runDyno(['flame', '--load', '--socket $SOCKET -a 200 -c 4 http://localhost/', '--', 'node', APP], { cwd, env: { SOCKET_DIR: cwd }, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /^Running 200 requests @ http:\/\/localhost\/ via .*app-\d+\.sock$/m)
  assert.match(run.stdout, /^200 requests in /m)
  assert.doesNotMatch(run.stdout, /^[\d,]+ errors \(/m)
})

test('a --load socket that is not the app\'s: a warning that says which one it listens on', async (t) => {
  const cwd = folder(t)
  const run = await runDyno(['doctor', '--load', `--socket ${join(cwd, 'other.sock')} -a 20 http://localhost/`, '--', 'node', APP], { cwd, env: { SOCKET_DIR: cwd }, timeout: 60_000 })
  assert.equal(run.code, 1)
  assert.match(run.stderr, /the --load goes to the unix socket .*other\.sock, but the app listens on .*app-\d+\.sock; write --socket '\$SOCKET'/)
  assert.match(run.stderr, /there is no unix socket at .*other\.sock/)
})

test('compare --load over unix sockets: each version is loaded on its own socket', async (t) => {
  const cwd = folder(t)
  const run = await runDyno(['compare', '--load', '--socket $SOCKET -a 100 -c 2 http://localhost/', '--rounds', '2', '--a', `node ${APP}`, '--b', `node ${APP}`], { cwd, env: { SOCKET_DIR: cwd }, timeout: 90_000 })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /Requests\/sec/i)
})

test('compare --load with neither $PORT nor $SOCKET says how to write both', async (t) => {
  const run = await runDyno(['compare', '--load', '--socket /tmp/x.sock http://localhost/', '--rounds', '2', '--a', 'node a.js', '--b', 'node b.js'], { cwd: folder(t) })
  assert.equal(run.code, 2)
  assert.match(run.stderr, /--socket \$SOCKET http:\/\/localhost\//)
})
