import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import https from 'node:https'
import { test } from 'node:test'
import { load } from '../../lib/index.js'
import { runDyno } from '../helpers/cli.js'

const fixture = (/** @type {string} */ name) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url))

/** An https server whose certificate is signed by the test CA, which nothing trusts by default. */
async function startHttpsServer () {
  const server = https.createServer({ key: fixture('server-key.pem'), cert: fixture('server.pem') }, (req, res) => res.end('secure'))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port
  return {
    url: `https://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve(undefined)) })
  }
}

test('https verifies the certificate by default', async (t) => {
  const target = await startHttpsServer()
  t.after(target.close)
  await assert.rejects(load({ url: target.url, amount: 10 }), (err) => {
    assert.equal(/** @type {any} */ (err).code, 'DYNO_TLS_CERTIFICATE')
    assert.match(/** @type {Error} */ (err).message, /--insecure/)
    return true
  })
})

test('--insecure skips verification; --ca trusts an issuer', async (t) => {
  const target = await startHttpsServer()
  t.after(target.close)
  const insecure = await load({ url: target.url, amount: 50, insecure: true })
  assert.equal(insecure.requests.completed, 50)
  const trusted = await load({ url: target.url, amount: 50, ca: fixture('ca.pem'), pipelining: 4 })
  assert.equal(trusted.requests.completed, 50)
  assert.equal(trusted.errors.total, 0)
})

test('the CLI explains a certificate that does not verify', async (t) => {
  const target = await startHttpsServer()
  t.after(target.close)
  const { code, stderr, stdout } = await runDyno(['load', '-a', '5', target.url])
  assert.equal(code, 1)
  assert.match(stderr, /^dyno load: the certificate of 127\.0\.0\.1:\d+ does not verify .*--insecure/)
  assert.equal(stderr.trim().split('\n').length, 1)
  assert.doesNotMatch(stdout, /Latency/)
  const ca = new URL('../fixtures/tls/ca.pem', import.meta.url).pathname
  const ok = await runDyno(['load', '-a', '5', '--ca', ca, '--json', target.url])
  assert.equal(ok.code, 0, ok.stderr)
  assert.equal(JSON.parse(ok.stdout).requests.completed, 5)
})

test('a --ca that did not sign the server certificate: the hint is about that file, not to pass --ca', async (t) => {
  const target = await startHttpsServer()
  t.after(target.close)
  // The server's own certificate is PEM, but not the authority that signed it.
  await assert.rejects(load({ url: target.url, amount: 5, ca: fixture('server.pem') }), (err) => {
    assert.equal(/** @type {any} */ (err).code, 'DYNO_TLS_CERTIFICATE')
    assert.match(/** @type {Error} */ (err).message, /is the --ca file the authority that signed it\?/)
    assert.doesNotMatch(/** @type {Error} */ (err).message, /pass --ca/)
    return true
  })
})
