import assert from 'node:assert/strict'
import { test } from 'node:test'
import { load } from '../../lib/index.js'
import { loadVerdict } from '../../lib/load/verdict.js'
import { runDyno } from '../helpers/cli.js'
import { startHttpServer, startRawServer } from '../helpers/servers.js'

/**
 * A result with the fields the verdict reads.
 * @param {{ completed?: number, pending?: number, sent?: number, errors?: number, refused?: number, interrupted?: boolean, targetRefusing?: boolean, failure?: any }} fields
 */
function result ({ completed = 0, pending = 0, sent = completed + pending, errors = 0, refused = 0, interrupted = false, targetRefusing = false, failure = null }) {
  return /** @type {import('../../lib/load/summary.js').LoadResult} */ (/** @type {unknown} */ ({
    requests: { completed, pending, sent },
    errors: { total: errors + refused, refused },
    interrupted,
    targetRefusing,
    failure
  }))
}

test('the verdict: answered, nothing answered, refusing, stopped, ended by a mistake', () => {
  assert.deepEqual(loadVerdict(result({ completed: 100 })), { exitCode: 0, message: null })
  assert.deepEqual(loadVerdict(result({ completed: 100, interrupted: true })), { exitCode: 130, message: null })
  assert.deepEqual(loadVerdict(result({ completed: 0, interrupted: true })), { exitCode: 130, message: null })
  assert.deepEqual(loadVerdict(result({ completed: 100, interrupted: true }), { interruptedExitCode: 143 }), { exitCode: 143, message: null })
  const waiting = loadVerdict(result({ pending: 10 }))
  assert.equal(waiting.exitCode, 1)
  assert.equal(waiting.message, 'the target answered none of the 10 requests sent: 10 were still waiting for an answer when the run ended')
  // Stopped by the user while nothing came back: still a target that did not answer.
  assert.equal(loadVerdict(result({ pending: 10, interrupted: true })).exitCode, 1)
  assert.equal(loadVerdict(result({ errors: 5 })).message, 'the target did not answer a single request; see the errors above')
  assert.equal(loadVerdict(result({})).exitCode, 1)
  assert.deepEqual(loadVerdict(result({ completed: 50, refused: 20, targetRefusing: true })),
    { exitCode: 1, message: 'the target stopped accepting connections during the run (20 refused); did it crash?' })
  const failure = { code: 'DYNO_REQUEST_HOOK', message: 'the setupRequest hook of request 1 (GET /) threw: no', exitCode: 2 }
  assert.deepEqual(loadVerdict(result({ completed: 50, failure })), { exitCode: 2, message: failure.message })
})

test('a server that accepts and never answers, with -d shorter than -t: the waiting requests are reported, exit code 1', async (t) => {
  const target = await startRawServer(() => {})
  t.after(target.close)
  const { code, stdout, stderr } = await runDyno(['load', '-c', '3', '-d', '2', '-t', '30', target.url])
  assert.equal(code, 1, stderr)
  const waiting = /\n0 requests in [\d.]+s, 0 B read\n(\d) requests? (was|were) still waiting for an answer when the run ended\n/.exec(stdout)
  assert.ok(waiting, stdout)
  const n = waiting[1]
  assert.equal(stderr, `dyno load: the target answered none of the ${n} requests sent: ${n} were still waiting for an answer when the run ended\n`)
  const json = await runDyno(['load', '-c', '3', '-d', '2', '-t', '30', '--json', target.url])
  assert.equal(json.code, 1)
  const parsed = JSON.parse(json.stdout)
  assert.ok(parsed.requests.pending > 0)
  assert.equal(parsed.requests.pending, parsed.requests.sent)
  assert.equal(parsed.requests.completed, 0)
})

test('every result says how many requests were still waiting at the end', async (t) => {
  // Answers every other request, and holds the others; the run stops once
  // every connection holds one.
  const controller = new AbortController()
  let n = 0
  let held = 0
  const target = await startHttpServer((req, res) => {
    if (n++ % 2 === 0) res.end('ok')
    else if (++held === 4) controller.abort()
  })
  t.after(target.close)
  const result = await load({ url: target.url, connections: 4, duration: 60, timeout: 60, signal: controller.signal })
  assert.equal(result.requests.pending, 4)
  assert.equal(result.requests.sent, result.requests.completed + result.requests.pending)
  assert.deepEqual(loadVerdict(result), { exitCode: 130, message: null })
})
