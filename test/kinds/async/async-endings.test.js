/**
 * However the app's requests end, dyno async gives its report: requests that
 * never finish are shown as such, with what they waited on until then; an
 * app that crashes keeps what was traced until the crash.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { dynoAsync, lineOf } from '../../helpers/async.js'
import { runDyno } from '../../helpers/cli.js'

const fixture = (/** @type {string} */ name) => fileURLToPath(new URL(`../../fixtures/apps/${name}`, import.meta.url))

test('requests that never finish: reported as never finished, with the wait they were in', async () => {
  const app = fixture('async-hangs.cjs')
  const run = await dynoAsync(['--sample', '1', '--json', '--load', '-c 2 -d 1 --timeout 5 http://127.0.0.1:$PORT/', '--', process.execPath, app])
  // Nothing was answered: the target failed, as dyno load says, and the report says where it waited.
  assert.equal(run.code, 1, run.stderr)
  assert.match(run.stderr, /dyno async: the target answered none of the 2 requests sent: 2 were still waiting/)
  const result = run.json
  assert.equal(result.requests.traced, 2)
  assert.equal(result.requests.finished, 0)
  assert.equal(result.requests.open + result.requests.aborted, 2)
  assert.equal(result.latency, null)
  assert.equal(result.typical, null)
  assert.notEqual(result.slowest.how, 'finished')
  // Its critical path so far: the 20 ms timer, awaited at the first await.
  const [wait] = result.slowest.criticalPath
  assert.equal(wait.kind, 'timer')
  assert.equal(wait.awaitedAt.line, lineOf(app, 'await new Promise((resolve) => setTimeout(resolve, 20))'))
  assert.ok(existsSync(join(/** @type {string} */ (run.folder), 'report.html')))
})

test('an app that crashes: the report holds the requests traced until then, and dyno says the app failed', async () => {
  const app = fixture('async-crashes.cjs')
  const run = await dynoAsync(['--sample', '1', '--load', '-c 1 -d 5 http://127.0.0.1:$PORT/', '--', process.execPath, app])
  assert.equal(run.code, 1, run.stderr)
  assert.match(run.stdout, /4 requests, 4 traced \(1 in 1, at most 50 a second\); typical [\d.]+ ms, slowest [\d.]+ ms; 1 traced never finished\./)
  assert.match(run.stdout, new RegExp(`serial-awaits {2}\\S*async-crashes\\.cjs:${lineOf(app, 'await wait(20)')} `))
  assert.match(run.stdout, /The app crashed: uncaught Error: the app crashed/)
  assert.match(run.stderr, /dyno async: the app crashed/)
  assert.ok(existsSync(join(/** @type {string} */ (run.folder), 'report.html')))
})

test('a loop blocked by the first request: the load sent requests and the app handed over none, said as such, not "drive it with --load"', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-async-blocked-'))
  const run = await runDyno(['async', '--load', '-c 3 -d 1 --timeout 1 http://127.0.0.1:$PORT/', '--', process.execPath, fixture('blocks-event-loop.cjs')], { cwd, env: { PORT: '0', BLOCK_AT_ONCE: '1' }, timeout: 90_000 })
  assert.equal(run.code, 1, run.stderr)
  assert.match(run.stdout, /The load sent \d+ requests and the app handed over none: its event loop was blocked, or it never took them\. dyno doctor says which\./)
  assert.doesNotMatch(run.stdout, /drive it with --load/)
})
