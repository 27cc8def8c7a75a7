import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs'
import http from 'node:http'
import http2 from 'node:http2'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { load } from '../../lib/index.js'
import { explainConnectError } from '../../lib/load/connect-error.js'
import { runDyno } from '../helpers/cli.js'
import { waitFor } from '../helpers/wait.js'

/** A folder of its own for the test's sockets. @param {import('node:test').TestContext} t */
function socketDir (t) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-sock-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/**
 * A server listening on the unix socket `path`, that remembers the paths and Host headers it saw.
 * @param {http.Server | http2.Http2Server} server @param {string} path
 */
async function listenOn (server, path) {
  const seen = { paths: new Set(), hosts: new Set(), requests: 0 }
  server.on('request', (/** @type {http.IncomingMessage} */ req) => {
    seen.requests++
    seen.paths.add(req.url)
    seen.hosts.add(req.headers.host ?? req.headers[':authority'])
  })
  await new Promise((resolve) => server.listen(path, () => resolve(undefined)))
  return {
    seen,
    close: () => new Promise((resolve) => {
      if ('closeAllConnections' in server) server.closeAllConnections()
      server.close(() => resolve(undefined))
    })
  }
}

test('HTTP/1.1 over a unix socket: --socket takes the connection, the URL its path and Host', async (t) => {
  const path = join(socketDir(t), 'app.sock')
  const server = await listenOn(http.createServer((req, res) => res.end('ok')), path)
  t.after(server.close)
  const result = await load({ url: 'http://api.local/health?deep=1', socketPath: path, connections: 4, pipelining: 2, amount: 200 })
  assert.equal(result.requests.completed, 200)
  assert.equal(result.errors.total, 0)
  assert.equal(result.socket, path)
  assert.deepEqual([...server.seen.paths], ['/health?deep=1'])
  assert.deepEqual([...server.seen.hosts], ['api.local'])
})

test('unix:<socket>:<path> is the same as --socket with a URL; h2c runs over a socket too', async (t) => {
  const path = join(socketDir(t), 'h2.sock')
  const server = await listenOn(http2.createServer((req, res) => res.end('ok')), path)
  t.after(server.close)
  const result = await load({ url: `unix:${path}:/items`, http2: true, streams: 4, connections: 2, amount: 100 })
  assert.equal(result.requests.completed, 100)
  assert.equal(result.protocol, 'HTTP/2')
  assert.deepEqual([...server.seen.paths], ['/items'])
  assert.deepEqual([...server.seen.hosts], ['localhost'])
})

test('a socket path that is missing, not a socket, or left behind by a dead server: one line each', async (t) => {
  const dir = socketDir(t)
  const missing = await runDyno(['load', '-a', '5', '--socket', join(dir, 'none.sock'), 'http://localhost/'])
  assert.equal(missing.code, 1)
  assert.match(missing.stderr, /^dyno load: there is no unix socket at .*none\.sock; start the server first/)

  const file = join(dir, 'file.sock')
  writeFileSync(file, 'not a socket')
  const notSocket = await runDyno(['load', '-a', '5', `unix:${file}`])
  assert.equal(notSocket.code, 2)
  assert.match(notSocket.stderr, /^dyno load: .*file\.sock is not a unix socket \(it is a regular file\)/)

  const device = await runDyno(['load', '-a', '5', '--socket', '/dev/null', 'http://localhost/'])
  assert.equal(device.code, 2)
  assert.match(device.stderr, /^dyno load: \/dev\/null is not a unix socket \(it is a device\)/)

  // A server killed outright leaves its socket file behind, with nothing listening.
  const stale = join(dir, 'stale.sock')
  const child = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(stale)})`], { stdio: 'ignore' })
  await waitFor(() => existsSync(stale), { what: 'the socket file' })
  child.kill('SIGKILL')
  await new Promise((resolve) => child.once('exit', resolve))
  const refused = await runDyno(['load', '-a', '5', '--socket', stale, 'http://localhost/'])
  assert.equal(refused.code, 1)
  assert.match(refused.stderr, /^dyno load: nothing is listening on the unix socket .*stale\.sock/)
  // A link to it is the same socket.
  const link = join(dir, 'link.sock')
  symlinkSync(stale, link)
  const linked = await runDyno(['load', '-a', '5', '--socket', link, 'http://localhost/'])
  assert.equal(linked.code, 1)
  assert.match(linked.stderr, /^dyno load: nothing is listening on the unix socket .*link\.sock/)
  for (const run of [missing, notSocket, refused]) assert.equal(run.stderr.trim().split('\n').length, 1)
})

test('a socket dyno may not open is the user\'s to fix', async () => {
  const err = Object.assign(new Error('connect EACCES /run/app.sock'), { code: 'EACCES' })
  const explained = await explainConnectError(err, { hostname: 'localhost', port: 80, socketPath: '/run/app.sock' })
  assert.equal(explained.code, 'DYNO_BAD_SOCKET')
  assert.equal(explained.exitCode, 2)
  assert.match(explained.message, /no permission to connect to the unix socket \/run\/app\.sock/)
})

test('a socket named twice, an empty one, and $SOCKET outside an observed app are refused before any load', async () => {
  const twice = await runDyno(['load', '-a', '5', '--socket', '/tmp/a.sock', 'unix:/tmp/b.sock'])
  assert.equal(twice.code, 2)
  assert.match(twice.stderr, /names a unix socket and so does --socket/)
  const empty = await runDyno(['load', '-a', '5', 'unix:'])
  assert.equal(empty.code, 2)
  assert.match(empty.stderr, /the unix socket path is empty/)
  const placeholder = await runDyno(['load', '-a', '5', '--socket', '$SOCKET', 'http://localhost/'])
  assert.equal(placeholder.code, 2)
  assert.match(placeholder.stderr, /\$SOCKET stands for the socket an app listens on/)
})

test('a socket that goes away during a run of -a requests: the run ends after the timeout, with what was measured', async (t) => {
  const path = join(socketDir(t), 'gone.sock')
  let served = 0
  const server = http.createServer((req, res) => {
    res.end('ok')
    // Closing removes the socket's file: the connections that follow fail with ENOENT.
    if (++served === 200) {
      server.close()
      server.closeAllConnections()
    }
  })
  await new Promise((resolve) => server.listen(path, () => resolve(undefined)))
  const result = await load({ url: 'http://localhost/', socketPath: path, amount: 1_000_000, timeout: 0.5, connections: 2 })
  assert.ok(result.requests.completed >= 190 && result.requests.completed <= 200, String(result.requests.completed))
  assert.equal(result.targetRefusing, true)
  assert.ok(result.errors.total > 0)
})
