import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http2 from 'node:http2'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { runDyno } from '../helpers/cli.js'
import { startHttpServer } from '../helpers/servers.js'

const preload = new URL('../fixtures/modules-log/preload.js', import.meta.url).href

/**
 * Runs `dyno load` and returns what it loaded: the URLs of the modules it
 * imported and Node's list of its built-in modules, one a line.
 * @param {import('node:test').TestContext} t @param {string[]} args
 */
async function modulesOf (t, args) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-modules-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const log = join(dir, 'modules.log')
  const run = await runDyno(['load', ...args], { env: { NODE_OPTIONS: `--import "${preload}"`, DYNO_TEST_MODULES_LOG: log } })
  assert.equal(run.code, 0, run.stderr)
  return readFileSync(log, 'utf8').split('\n')
}

test('a plain HTTP/1.1 run loads neither HTTP/2, TLS, crypto nor child processes', async (t) => {
  const server = await startHttpServer((req, res) => res.end('ok'))
  t.after(server.close)
  const loaded = await modulesOf(t, ['-a', '20', '-c', '2', '--json', server.url])
  assert.ok(loaded.some((m) => m.endsWith('/lib/load/connection.js')), 'the log holds what dyno imported')
  assert.ok(!loaded.some((m) => m.endsWith('/lib/load/http2-connection.js')), 'HTTP/2 was loaded')
  for (const builtin of ['tls', 'crypto', 'child_process', 'http2']) {
    assert.ok(!loaded.includes(`NativeModule ${builtin}`), `node:${builtin} was loaded`)
  }
})

test('an HTTP/2 run loads HTTP/2 when it starts', async (t) => {
  const server = http2.createServer((req, res) => res.end('ok'))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  t.after(() => new Promise((resolve) => server.close(() => resolve(undefined))))
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port
  const loaded = await modulesOf(t, ['--http2', '-a', '20', '-c', '2', '--json', `http://127.0.0.1:${port}/`])
  assert.ok(loaded.some((m) => m.endsWith('/lib/load/http2-connection.js')))
})
