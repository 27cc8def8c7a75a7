import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { oneLine, runDyno } from '../helpers/cli.js'
import { startHttpServer } from '../helpers/servers.js'

const fixturePath = (/** @type {string} */ name) => new URL(`../fixtures/tls/${name}`, import.meta.url).pathname

test('--ca with a file that is not a PEM certificate: one line, exit code 2, before any connection', async () => {
  // Checked before any connection: no server is needed.
  const url = 'https://127.0.0.1:1/'
  const dir = mkdtempSync(join(tmpdir(), 'dyno-ca-'))
  writeFileSync(join(dir, 'notes.txt'), 'this is not a certificate\n')
  writeFileSync(join(dir, 'broken.pem'), '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')
  const cases = [
    ['notes.txt', 'dyno load: the certificate authority (--ca) is not a PEM certificate (it must start with -----BEGIN CERTIFICATE-----); convert a DER file with: openssl x509 -inform der -in ca.der -out ca.pem'],
    [fixturePath('server-key.pem'), 'dyno load: the certificate authority (--ca) holds no certificate (a key or a request?); pass the CA certificate, in PEM'],
    ['broken.pem', 'dyno load: the certificate authority (--ca) holds a PEM block that is not a valid certificate']
  ]
  for (const [file, message] of cases) {
    const run = await runDyno(['load', '-a', '5', '--ca', file, url], { cwd: dir })
    assert.equal(run.code, 2, run.stderr)
    assert.equal(run.stdout, '')
    assert.equal(oneLine(run.stderr), message)
  }
})

test('https:// to a plain http port: one line saying to use http://', async (t) => {
  const target = await startHttpServer((req, res) => res.end('plain'))
  t.after(target.close)
  const url = target.url.replace('http://', 'https://')
  for (const flags of [[], ['--insecure']]) {
    const run = await runDyno(['load', '-a', '5', ...flags, url])
    assert.equal(run.code, 2, run.stderr)
    assert.equal(oneLine(run.stderr), `dyno load: 127.0.0.1:${target.port} does not speak TLS (it answered in plain text); for a plain HTTP server, use http:// in the URL`)
  }
})
