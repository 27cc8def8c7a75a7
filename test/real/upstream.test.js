// dyno async, doctor and heap on a fastify app that calls another service with
// fetch (undici, whose connections are pooled: opened by an earlier request,
// or before any), the service a real server in a process of its own.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { ANSWER_MS } from '../../examples/upstream/upstream.js'
import { followsFromRequests, lineOf, notBelow } from '../helpers/async.js'
import { dynoOn, root } from '../helpers/real.js'
import { onceWithin, waitForOutput } from '../helpers/wait.js'

const server = join(root, 'examples/upstream/server.js')
const fixed = join(root, 'examples/upstream/server-fixed.js')

/** @type {import('node:child_process').ChildProcess} */
let service
let url = ''
before(async () => {
  service = spawn(process.execPath, [join(root, 'examples/upstream/service.js')], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] })
  const stdout = /** @type {import('node:stream').Readable} */ (service.stdout).setEncoding('utf8')
  url = (await waitForOutput(stdout, /listening on (http:\/\/\S+?)\/?\s/, { what: 'the service\'s "listening on" line' }))[1]
})
after(async () => {
  if (service.exitCode === null) {
    service.kill()
    await onceWithin(service, 'exit', { what: 'the service\'s end after SIGTERM' })
  }
})

test('async: three fetch calls awaited one after another are serial-awaits at the first, each waiting on fetch, saving what running them together would', async () => {
  const run = await dynoOn(['async', '--json', '--load', '-c 1 -a 30 http://127.0.0.1:$PORT/', '--', process.execPath, server], { UPSTREAM_URL: url })
  assert.equal(run.code, 0, run.stderr)
  assert.deepEqual(run.json.findings.map((/** @type {any} */ f) => f.kind), ['serial-awaits'], JSON.stringify(run.json.findings))
  const [finding] = run.json.findings
  assert.equal(finding.location.line, lineOf(server, 'const user = await'))
  assert.deepEqual(finding.detail.awaits.map((/** @type {any} */ a) => a.location.line), [
    lineOf(server, 'const user = await'), lineOf(server, 'const orders = await'), lineOf(server, 'const recommendations = await')
  ])
  assert.deepEqual(finding.detail.awaits.map((/** @type {any} */ a) => a.waitedOn), ['fetch', 'fetch', 'fetch'])
  // Together, the three would take one answer's time: two are saved (how little more, test/timing/async.test.js).
  assert.ok(notBelow(finding.savingMs, 2 * ANSWER_MS), `saves ${finding.savingMs} ms, true ${2 * ANSWER_MS} ms`)
  assert.ok(followsFromRequests(run.json, finding), `saves ${finding.savingMs} of ${finding.perRequestMs} ms; the slowest request took ${run.json.latency.maxMs} ms`)
  // The critical path goes through the service's answers, not "running code".
  assert.ok(run.json.typical.criticalPath.filter((/** @type {any} */ s) => s.waitedOn === 'fetch' && s.endMs - s.startMs >= ANSWER_MS * 0.8).length >= 3, JSON.stringify(run.json.typical.criticalPath))

  const after = await dynoOn(['async', '--json', '--load', '-c 1 -a 30 http://127.0.0.1:$PORT/', '--', process.execPath, fixed], { UPSTREAM_URL: url })
  assert.equal(after.code, 0, after.stderr)
  assert.deepEqual(after.json.findings, [])
})

const httpCalls = join(root, 'test/fixtures/apps/http-calls.js')
for (const route of ['/keep-alive', '/fresh-sockets']) {
  test(`async on node:http calls, ${route.slice(1)}: serial-awaits at the first, saving what running them together would`, async () => {
    const run = await dynoOn(['async', '--json', '--load', `-c 1 -a 30 http://127.0.0.1:$PORT${route}`, '--', process.execPath, httpCalls], { UPSTREAM_URL: url })
    assert.equal(run.code, 0, run.stderr)
    assert.deepEqual(run.json.findings.map((/** @type {any} */ f) => f.kind), ['serial-awaits'], JSON.stringify(run.json.findings))
    const [finding] = run.json.findings
    assert.equal(finding.location.line, lineOf(httpCalls, 'const user = await get('))
    assert.equal(finding.detail.awaits.length, 3)
    assert.ok(notBelow(finding.savingMs, 2 * ANSWER_MS), `saves ${finding.savingMs} ms, true ${2 * ANSWER_MS} ms`)
    assert.ok(followsFromRequests(run.json, finding), `saves ${finding.savingMs} of ${finding.perRequestMs} ms; the slowest request took ${run.json.latency.maxMs} ms`)
  })
}

test('async at ten connections: a load of 300 requests traces enough to judge, and the same finding', async () => {
  // A count, not a duration: on a busy machine two seconds hold fewer requests, and fewer traces.
  const run = await dynoOn(['async', '--json', '--load', '-c 10 -a 300 http://127.0.0.1:$PORT/', '--', process.execPath, server], { UPSTREAM_URL: url })
  assert.equal(run.code, 0, run.stderr)
  assert.ok(run.json.requests.finished >= 20, `${run.json.requests.finished} finished`)
  assert.equal(run.json.requests.tooFew, false)
  assert.deepEqual(run.json.findings.map((/** @type {any} */ f) => f.kind), ['serial-awaits'])
})

test('doctor and heap: requests in flight to the service when the load stops are neither growth nor a leak', async () => {
  const doctor = await dynoOn(['doctor', '--json', '--load', '-c 10 -d 3 http://127.0.0.1:$PORT/', '--', process.execPath, server], { UPSTREAM_URL: url })
  assert.equal(doctor.code, 0, doctor.stderr)
  assert.ok(!doctor.json.diagnoses.some((/** @type {any} */ d) => d.kind === 'memory-growth'))
  assert.equal(doctor.json.summary.memory.heapAfterFullGc.inFlightAfter, 0)

  const heap = await dynoOn(['heap', '--json', '--load', '-c 10 -d 2 http://127.0.0.1:$PORT/', '--', process.execPath, server], { UPSTREAM_URL: url })
  assert.equal(heap.code, 0, heap.stderr)
  assert.deepEqual(heap.json.leaks, [])
})
