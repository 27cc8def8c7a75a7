/**
 * dyno heap on real servers under real load: the leak named by what holds
 * it, at the right line; the fixed server with no leak; an emitter's
 * listeners named by their event.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { runDyno } from '../../helpers/cli.js'
import { tempDir } from '../../helpers/heap-snapshots.js'

const examples = fileURLToPath(new URL('../../../examples/heap/', import.meta.url))
const LOAD = '-c 10 -a 3000 http://127.0.0.1:$PORT/'

/** @param {string[]} args @param {NodeJS.ProcessEnv} [env] */
async function heap (args, env = {}) {
  const out = tempDir('dyno-heap-run-')
  // PORT=0: a user's machine often has something on the examples' default port.
  const run = await runDyno(['heap', '--out', out, '--json', ...args], { cwd: examples, env: { PORT: '0', ...env }, timeout: 180_000 })
  const folders = existsSync(out) ? readdirSync(out) : []
  // stdout holds dyno's JSON alone: the app's own output goes to stderr.
  return { ...run, json: run.code === 0 ? JSON.parse(run.stdout) : null, folder: folders.length === 1 ? join(out, folders[0]) : null }
}

test('the name server\'s leak: strings held by the properties of `names`, declared on line 8', async () => {
  const run = await heap(['--load', LOAD, '--', 'node', 'name-server.js'])
  assert.equal(run.code, 0, run.stderr)
  const folder = /** @type {string} */ (run.folder)
  const { json } = run
  assert.equal(json.schemaVersion, 1)
  assert.equal(json.snapshots.length, 3)
  assert.deepEqual(json.snapshots.map((/** @type {any} */ s) => s.label), ['before the load', 'after round 1', 'after round 2'])
  assert.ok(json.snapshots.every((/** @type {any} */ s) => s.ms > 0 && s.bytes > 0))
  assert.equal(json.leaks.length, 1, JSON.stringify(json.leaks.map((/** @type {any} */ l) => l.holder)))
  const [leak] = json.leaks
  assert.equal(leak.constructor, '(string)')
  assert.equal(leak.holder, '`names` properties')
  assert.equal(leak.location, 'name-server.js:8')
  // About one new name per request (6,000 of them), and a few strings of the server's own.
  assert.ok(leak.countDelta > 5000 && leak.countDelta < 7000, String(leak.countDelta))
  assert.ok(leak.retainedDelta > 0)
  const variable = leak.path.find((/** @type {any} */ step) => step.edge === 'context' && step.name === 'names')
  assert.ok(variable, 'the path goes through the variable')
  assert.equal(leak.path.at(-1).to, '(string)')
  const strings = json.comparison.find((/** @type {any} */ r) => r.name === '(string)')
  assert.equal(strings.countDelta, leak.countDelta)
  assert.ok(existsSync(join(folder, 'report.html')))
  assert.ok(existsSync(join(folder, 'heap.json')))
})

test('the fixed name server grows by nothing above noise', async () => {
  const run = await heap(['--load', LOAD, '--', 'node', 'name-server-fixed.js'])
  assert.equal(run.code, 0, run.stderr)
  assert.deepEqual(run.json.leaks, [])
})

test('a listener leak is named by the emitter\'s variable and the event', async () => {
  const run = await heap(['--load', LOAD, '--', 'node', 'config-listeners.js'])
  assert.equal(run.code, 0, run.stderr)
  assert.equal(run.json.leaks.length, 1, JSON.stringify(run.json.leaks.map((/** @type {any} */ l) => l.holder)))
  const [leak] = run.json.leaks
  assert.equal(leak.constructor, 'RequestContext')
  assert.equal(leak.holder, '`bus` listeners for \'config-changed\'')
  assert.equal(leak.location, 'config-listeners.js:8')
  assert.equal(leak.countDelta, 6000)
  // The listener closures and the settings each request keeps are held the same way: one leak.
  const also = leak.alsoGrowing.map((/** @type {any} */ g) => g.name)
  assert.ok(also.includes('(closure)') && also.includes('Object'), also.join(', '))
  const listener = leak.path.find((/** @type {any} */ step) => step.to === '(closure)' && step.location === 'config-listeners.js:21')
  assert.ok(listener, 'the path names the listener with its line')
})

test('without a load: a snapshot before the first line and one at exit, for an app that ends by itself', async () => {
  const run = await heap(['--', 'node', fileURLToPath(new URL('../../fixtures/apps/heap-jobs.cjs', import.meta.url))])
  assert.equal(run.code, 0, run.stderr)
  assert.deepEqual(run.json.snapshots.map((/** @type {any} */ s) => s.label), ['start', 'end'])
  assert.equal(run.json.end.how, 'exited on its own with code 0')
  const [leak] = run.json.leaks
  assert.equal(leak.constructor, 'Job')
  assert.equal(leak.countDelta, 5000)
  assert.equal(leak.holder, '`done` array items')
})

test('--sampling: the allocations by stack, as a flamegraph in bytes and a .heapprofile for DevTools', async () => {
  const run = await heap(['--sampling', '--sampling-interval', '1024', '--load', LOAD, '--', 'node', 'name-server.js'])
  assert.equal(run.code, 0, `stdout: ${run.stdout}\nstderr: ${run.stderr}`)
  const folder = /** @type {string} */ (run.folder)
  assert.ok(run.json.allocations.length > 0)
  assert.ok(run.json.allocations.every((/** @type {any} */ f) => f.bytes > 0))
  const raw = readdirSync(join(folder, 'raw'))
  const profile = raw.find((f) => f.endsWith('.heap.heapprofile'))
  assert.ok(profile, raw.join(' '))
  const html = readFileSync(join(folder, 'allocations.html'), 'utf8')
  const data = JSON.parse(/** @type {string} */ (/<script type="application\/json" id="flame-data">([^<]*)<\/script>/.exec(html)?.[1]))
  assert.equal(data.meta.unit, 'bytes')
  const names = data.frames.name.map((/** @type {number} */ i) => data.strings[i])
  assert.ok(names.includes('createName'), 'the app\'s own function that allocates the names is in the graph')
})

test('--sampling on an app that exits by itself still writes its allocations', async () => {
  const run = await heap(['--sampling', '--sampling-interval', '512', '--', 'node', fileURLToPath(new URL('../../fixtures/apps/heap-jobs.cjs', import.meta.url))])
  assert.equal(run.code, 0, run.stderr)
  const folder = /** @type {string} */ (run.folder)
  assert.equal(run.json.end.how, 'exited on its own with code 0')
  assert.ok(run.json.allocations.length > 0)
  assert.ok(readdirSync(join(folder, 'raw')).some((f) => f.endsWith('.heap.heapprofile')))
  assert.ok(existsSync(join(folder, 'allocations.html')))
})

test('under an inherited NODE_V8_COVERAGE (c8, nyc), where functions carry debug info, the holder keeps its file and line', async () => {
  const run = await heap(['--load', LOAD, '--', 'node', 'name-server.js'], { NODE_V8_COVERAGE: tempDir('dyno-heap-coverage-') })
  assert.equal(run.code, 0, run.stderr)
  assert.deepEqual(run.json.leaks.map((/** @type {any} */ l) => l.location), ['name-server.js:8'])
})

test('an app whose loop is blocked: dyno gives up on the snapshot in seconds, says why, exits 1, and parses no partial file', async () => {
  const app = fileURLToPath(new URL('../../fixtures/apps/blocks-event-loop.cjs', import.meta.url))
  const run = await heap(['--load', '-c 2 -d 1 -t 1 http://127.0.0.1:$PORT/', '--', process.execPath, app])
  assert.equal(run.code, 1, run.stderr)
  assert.match(run.stderr, /the heap snapshot after round 1 failed: the app's event loop has not turned for 5 s: it is blocked, so V8 cannot take a snapshot \(dyno doctor or dyno flame shows where it is held\)/)
  assert.doesNotMatch(run.stderr, /not a heap snapshot/)
})
