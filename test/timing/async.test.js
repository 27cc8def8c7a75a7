/**
 * The timing tier (see scripts/test.js): dyno async's measured costs and
 * savings against the waits the apps are known to make. A timer never
 * fires early, so the default suite checks the figures are no lower
 * (test/kinds/async/, test/real/); how little higher they are depends on how
 * late this machine makes timers, and is checked here.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { ANSWER_MS } from '../../examples/upstream/upstream.js'
import { EXPECTED, FIXED, dynoAsync, examplePath, measuredWithin } from '../helpers/async.js'
import { dynoOn, root } from '../helpers/real.js'
import { onceWithin, waitForOutput } from '../helpers/wait.js'

for (const [example, expected] of Object.entries(EXPECTED)) {
  test(`${example}: the cost and the saving within what the example's waits give`, async () => {
    const run = await dynoAsync(['--sample', '1', '--json', '--load', '-c 1 -a 5 http://127.0.0.1:$PORT/', '--', process.execPath, examplePath(example)])
    assert.equal(run.code, 0, run.stderr)
    const [finding] = run.json.findings
    assert.equal(finding?.kind, expected.kind, JSON.stringify(run.json.findings))
    assert.ok(measuredWithin(finding.savingMs, expected.savingMs), `saving ${finding.savingMs} ms, true ${expected.savingMs} ms`)
    assert.ok(measuredWithin(finding.perRequestMs, expected.costMs), `cost ${finding.perRequestMs} ms, true ${expected.costMs} ms`)
  })
}

for (const example of FIXED) {
  test(`${example}, the fixed version: no finding at all, not even a fan-out from timers fired late`, async () => {
    const run = await dynoAsync(['--sample', '1', '--json', '--load', '-c 1 -a 5 http://127.0.0.1:$PORT/', '--', process.execPath, examplePath(example)])
    assert.equal(run.code, 0, run.stderr)
    assert.deepEqual(run.json.findings, [])
  })
}

/** @type {import('node:child_process').ChildProcess} */
let service
let url = ''
before(async () => {
  service = spawn(process.execPath, [join(root, 'examples/upstream/service.js')], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] })
  const stdout = /** @type {import('node:stream').Readable} */ (service.stdout).setEncoding('utf8')
  url = (await waitForOutput(stdout, /listening on (http:\/\/\S+?)\/?\s/, { what: 'the service\'s "listening on" line' }))[1]
})
after(async () => {
  if (service?.exitCode === null) {
    service.kill()
    await onceWithin(service, 'exit', { what: 'the service\'s end after SIGTERM' })
  }
})

test('three fetch calls awaited one after another: the saving is two of the service\'s answers', async () => {
  const run = await dynoOn(['async', '--json', '--load', '-c 1 -a 30 http://127.0.0.1:$PORT/', '--', process.execPath, join(root, 'examples/upstream/server.js')], { UPSTREAM_URL: url })
  assert.equal(run.code, 0, run.stderr)
  const [finding] = run.json.findings
  assert.equal(finding?.kind, 'serial-awaits', JSON.stringify(run.json.findings))
  assert.ok(measuredWithin(finding.savingMs, 2 * ANSWER_MS), `saves ${finding.savingMs} ms, true ${2 * ANSWER_MS} ms`)
})
