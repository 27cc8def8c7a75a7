import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runDyno } from '../../helpers/cli.js'
import { startHttpServer } from '../../helpers/servers.js'

test('credentials in the URL go out as Basic authorization, and the password never shows', async (t) => {
  /** @type {(string | undefined)[]} */
  const seen = []
  const target = await startHttpServer((req, res) => { seen.push(req.headers.authorization); res.end('ok') })
  t.after(target.close)
  // Credentials on the loopback URL: user ana, password s@cret.
  const url = target.url.replace('//', '//ana:s%40cret@')
  const run = await runDyno(['load', '-a', '3', '-c', '1', url])
  assert.equal(run.code, 0, run.stderr)
  assert.deepEqual(seen, Array(3).fill(`Basic ${Buffer.from('ana:s@cret').toString('base64')}`))
  assert.match(run.stdout, new RegExp(`^Running 3 requests @ http:\\/\\/ana:\\*\\*\\*@127\\.0\\.0\\.1:${target.port}/\n`))
  assert.doesNotMatch(run.stdout + run.stderr, /cret/)
  const json = await runDyno(['load', '-a', '1', '--json', url])
  assert.equal(JSON.parse(json.stdout).url, target.url.replace('//', '//ana:***@'))
  // An authorization header given with -H wins.
  seen.length = 0
  const own = await runDyno(['load', '-a', '1', '-H', 'Authorization: Bearer x', url])
  assert.equal(own.code, 0, own.stderr)
  assert.deepEqual(seen, ['Bearer x'])
})

test('the banner shows the rate asked for, fractions included', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  for (const [rate, shown] of [['0.5', '0.5'], ['0.1', '0.1'], ['2000', '2,000'], ['12.25', '12.25']]) {
    const run = await runDyno(['load', '-R', rate, '-a', '1', target.url])
    assert.equal(run.code, 0, run.stderr)
    assert.match(run.stdout, new RegExp(`\nopen model: ${shown.replace('.', '\\.')} req/s, `))
  }
})
