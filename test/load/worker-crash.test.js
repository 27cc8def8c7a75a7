import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { runDyno } from '../helpers/cli.js'
import { startHttpServer } from '../helpers/servers.js'

test('a crash inside a load worker that is not a DynoError is reported as a bug in dyno, exit code 70', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const dir = mkdtempSync(join(tmpdir(), 'dyno-crash-'))
  // Breaks the engine's clock in the worker threads only: the engine then
  // throws a TypeError of its own, as a bug in dyno would.
  writeFileSync(join(dir, 'sabotage.mjs'), `
    import { isMainThread } from 'node:worker_threads'
    if (!isMainThread) performance.now = () => { throw new TypeError('the clock is gone') }
    export default [{ path: '/' }]
  `)
  const run = await runDyno(['load', '-w', '1', '-a', '10', '--requests', 'sabotage.mjs', target.url], { cwd: dir })
  assert.equal(run.code, 70, run.stderr)
  assert.equal(run.stderr, 'dyno load: a bug in dyno (load worker 0 crashed: TypeError: the clock is gone); please report it with the command line and this output\n')
})
