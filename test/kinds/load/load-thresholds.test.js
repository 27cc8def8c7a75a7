import assert from 'node:assert/strict'
import { test } from 'node:test'
import { oneLine, runDyno } from '../../helpers/cli.js'
import { startHttpServer } from '../../helpers/servers.js'

/**
 * dyno load --fail-on. Every threshold here holds or breaks whatever the
 * machine's speed: p99<60s holds, rps<0.001 and requests>1000000 break.
 */

/** @param {string} stderr */
function lines (stderr) {
  return stderr.trim().split('\n')
}

test('thresholds that hold: exit 0, nothing on stderr, each listed after the tables', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const { code, stdout, stderr } = await runDyno(['load', '-c', '2', '-a', '200', '--fail-on', 'p99<60s,errors=0,non2xx-rate=0%', '--fail-on', 'requests=200', target.url])
  assert.equal(code, 0, stderr)
  assert.equal(stderr, '')
  assert.match(stdout, /\nThresholds: 4 held, 0 broken\n {2}✓ p99<60s +p99 was [\d.]+ ms\n {2}✓ errors=0 +errors was 0\n/)
  assert.match(stdout, / {2}✓ requests=200 +requests was 200\n$/)
})

test('a broken threshold: exit 3, one line on stderr for each broken one', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const { code, stdout, stderr } = await runDyno(['load', '-c', '2', '-a', '200', '--fail-on', 'p99<60s,rps<0.001,errors=0,requests>1000000', target.url])
  assert.equal(code, 3, stderr)
  const [rps, requests, ...rest] = lines(stderr)
  assert.match(rps, /^dyno load: threshold rps<0\.001 broken: rps was [\d.]+ req\/s$/)
  assert.equal(requests, 'dyno load: threshold requests>1000000 broken: requests was 200')
  assert.deepEqual(rest, [])
  assert.match(stdout, /\nThresholds: 2 held, 2 broken\n/)
  assert.match(stdout, / {2}✗ rps<0\.001 /)
})

test('a threshold dyno cannot judge: exit 2 and one line, before any request is sent', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const cases = /** @type {[string, RegExp][]} */ ([
    ['p99<60s,latency<200ms', /^dyno load: --fail-on "latency<200ms": unknown figure "latency"; the figures are p<N> .*, rps, requests, errors, non2xx, error-rate, non2xx-rate$/],
    ['rps<3ms', /^dyno load: --fail-on "rps<3ms": rps is completed requests per second: it takes a plain number, not ms$/],
    ['p99 200ms', /^dyno load: --fail-on "p99 200ms": not a threshold; write it as a figure, an operator/],
    ['error-rate<5', /a bare number is a fraction from 0 to 1; write 5% for a percentage$/]
  ])
  for (const [thresholds, message] of cases) {
    const { code, stdout, stderr } = await runDyno(['load', '-a', '200', '--fail-on', thresholds, target.url])
    assert.equal(code, 2, stderr)
    assert.match(oneLine(stderr), message)
    assert.equal(stdout, '')
  }
  assert.equal(target.stats.requests, 0)
})

test('--json adds the verdicts, and only with --fail-on', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const run = await runDyno(['load', '-a', '200', '--json', '--fail-on', 'p99<60s,requests>1000000,error-rate<0.01', target.url])
  assert.equal(run.code, 3, run.stderr)
  const result = JSON.parse(run.stdout)
  assert.equal(result.requests.completed, 200)
  assert.equal(typeof result.latency.histogram.data, 'string')
  const [p99, requests, errorRate] = result.thresholds
  assert.deepEqual({ ...p99, value: 0 }, { threshold: 'p99<60s', figure: 'p99', op: '<', limit: 60000, unit: 'ms', value: 0, ok: true })
  assert.equal(p99.value, result.latency.percentiles['99'])
  assert.deepEqual(requests, { threshold: 'requests>1000000', figure: 'requests', op: '>', limit: 1000000, unit: 'count', value: 200, ok: false })
  assert.deepEqual(errorRate, { threshold: 'error-rate<0.01', figure: 'error-rate', op: '<', limit: 1, unit: '%', value: 0, ok: true })
  assert.equal(oneLine(run.stderr), 'dyno load: threshold requests>1000000 broken: requests was 200')
  const plain = await runDyno(['load', '-a', '200', '--json', target.url])
  assert.equal(plain.code, 0, plain.stderr)
  assert.equal('thresholds' in JSON.parse(plain.stdout), false)
})

test('a target that answers nothing keeps exit 1, and its thresholds say they cannot be judged', async (t) => {
  const target = await startHttpServer((req) => req.socket.destroy())
  t.after(target.close)
  const { code, stderr } = await runDyno(['load', '-c', '2', '-a', '200', '-d', '2', '--fail-on', 'errors<1000000,p99<60s', target.url])
  assert.equal(code, 1, stderr)
  const [failure, ...judged] = lines(stderr)
  assert.match(failure, /^dyno load: the (target did not answer|run ended before the target answered) a single request/)
  assert.deepEqual(judged, ['dyno load: cannot judge errors<1000000: no request completed', 'dyno load: cannot judge p99<60s: no request completed'])
})

test('Ctrl-C keeps exit 130, and the thresholds are judged on what was measured', async (t) => {
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let dyno
  /** @type {import('node:http').ServerResponse[]} */
  const held = []
  let seen = 0
  // The first 50 requests are answered; the rest wait until dyno is stopped.
  const target = await startHttpServer((req, res) => {
    if (++seen <= 50) return res.end('ok')
    held.push(res)
    if (seen === 51) dyno?.kill('SIGINT')
  })
  t.after(() => { for (const res of held) res.destroy() })
  t.after(target.close)
  const { code, stderr } = await runDyno(['load', '-c', '2', '-a', '200', '-d', '20', '--fail-on', 'p99<60s,requests>1000000', target.url], { onSpawn: (child) => { dyno = child } })
  assert.equal(code, 130, stderr)
  assert.deepEqual(lines(stderr), ['dyno load: threshold requests>1000000 broken: requests was 50'])
})

test('a load run by another command takes no --fail-on', async () => {
  const { code, stderr } = await runDyno(['flame', '--load', '--fail-on p99<1s http://127.0.0.1:$PORT/', '--', process.execPath, '-e', ''])
  assert.equal(code, 2)
  assert.equal(oneLine(stderr), 'dyno flame: --fail-on is dyno load\'s own: a load run by another command judges no thresholds')
})
