import assert from 'node:assert/strict'
import { test } from 'node:test'
import { MAX_TIMER_MS, setDeadline } from '../../lib/load/timers.js'
import { runDyno } from '../helpers/cli.js'
import { startHttpServer } from '../helpers/servers.js'

test('-d beyond what a timer holds runs until stopped, not for 1 ms', async (t) => {
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child
  let seen = 0
  const target = await startHttpServer((req, res) => {
    if (++seen === 50) child?.kill('SIGTERM')
    res.end('ok')
  })
  t.after(target.close)
  const seconds = String(Math.ceil(MAX_TIMER_MS / 1000) + 1)
  const run = await runDyno(['load', '-c', '2', '-d', seconds, '--json', target.url], { onSpawn: (c) => { child = c } })
  // 128 + SIGTERM's number, as shells report it.
  assert.equal(run.code, 143, run.stderr)
  const result = JSON.parse(run.stdout)
  assert.equal(result.interrupted, true)
  assert.ok(result.requests.completed >= 49, `completed ${result.requests.completed}`)
})

test('a deadline is not met early, however far it is', async () => {
  const at = performance.now() + 30
  const firedAt = await new Promise((resolve) => setDeadline(() => resolve(performance.now()), at))
  assert.ok(firedAt >= at)
  const far = setDeadline(() => assert.fail('fired'), performance.now() + MAX_TIMER_MS * 3)
  await new Promise((resolve) => setTimeout(resolve, 20))
  far.cancel()
})
