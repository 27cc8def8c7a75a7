/**
 * The timing tier (see scripts/test.js): the verdicts of dyno compare --load
 * from one short run. Rounds of a second or two tell these differences
 * apart on a quiet machine; on a busy one the rounds can differ by more than
 * the change, and dyno rightly says it cannot tell. The default suite checks
 * that each verdict follows from the loads recorded (test/kinds/compare/).
 */
import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { startDatabase } from '../../examples/postgres/database.js'
import { runDyno } from '../helpers/cli.js'
import { dynoOn, root } from '../helpers/real.js'
import { cpuBurnRepository } from '../helpers/repositories.js'

const WORK = fileURLToPath(new URL('../fixtures/apps/work-per-request.cjs', import.meta.url))

/** @param {string} stdout */
const byName = (stdout) => Object.fromEntries(JSON.parse(stdout).comparisons.map((/** @type {any} */ c) => [c.name, c]))

test('twice the CPU work per request is found slower, with the right sign', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-compare-'))
  const run = await runDyno(['compare', '--json', '--load', '-c 4 -d 1 http://127.0.0.1:$PORT/', '--rounds', '8', '--a', `node ${WORK} 1`, '--b', `node ${WORK} 2`], { cwd, timeout: 120_000 })
  assert.equal(run.code, 0, run.stderr)
  const doc = JSON.parse(run.stdout)
  const { requests, p50 } = byName(run.stdout)
  assert.equal(requests.verdict, 'slower', JSON.stringify(doc.rounds.map((/** @type {any} */ r) => [r.before.requestsPerSecond, r.after.requestsPerSecond])))
  assert.ok(requests.ratio < 0.8 && requests.high < 1, `ratio ${requests.ratio}`)
  assert.equal(p50.verdict, 'slower')
  assert.ok(p50.ratio > 1)
})

test('--against: the CPU-burning example\'s fix in the working tree is faster than the commit before it', async () => {
  const repo = cpuBurnRepository()
  const run = await runDyno(['compare', '--load', '-c 2 -d 1 http://127.0.0.1:$PORT/', '--rounds', '3', '--against', 'HEAD', '--', 'node', 'server.js'], { cwd: repo, env: { PORT: '0' }, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /│ Requests\/sec +│ .* │ faster +│/)
  assert.match(run.stdout, /; working tree is faster on throughput\.$/m)
})

test('compare --load over a real PostgreSQL: the average in SQL is faster than in JavaScript', async (t) => {
  const database = await startDatabase()
  t.after(() => database.stop())
  const server = join(root, 'examples/postgres/server.js')
  const fixed = join(root, 'examples/postgres/server-fixed.js')
  const run = await dynoOn(['compare', '--json', '--rounds', '3', '--load', '-c 10 -d 1 http://127.0.0.1:$PORT/', '--a', `${process.execPath} ${server}`, '--b', `${process.execPath} ${fixed}`], { DATABASE_URL: database.url }, 300_000)
  assert.equal(run.code, 0, run.stderr)
  const rate = run.json.comparisons.find((/** @type {any} */ c) => /req/i.test(c.name))
  assert.equal(rate?.verdict, 'faster', JSON.stringify(run.json.comparisons))
})
