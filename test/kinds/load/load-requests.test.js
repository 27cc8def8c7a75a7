import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { load } from '../../../lib/index.js'
import { oneLine, runDyno } from '../../helpers/cli.js'
import { startHttpServer } from '../../helpers/servers.js'

/** A folder holding `files`. @param {Record<string, string>} files */
function folderWith (files) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-requests-'))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}

/** A server that records, per connection, `METHOD path authorization body`. */
async function recordingServer () {
  /** @type {Map<import('node:net').Socket, string[]>} */
  const byConnection = new Map()
  const target = await startHttpServer((req, res) => {
    let body = ''
    req.on('data', (d) => { body += d })
    req.on('end', () => {
      const seen = byConnection.get(req.socket) ?? []
      byConnection.set(req.socket, seen)
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'} ${body}`.trim())
      res.end('ok')
    })
  })
  return { ...target, byConnection, all: () => [...byConnection.values()].flat() }
}

test('an async setupRequest is awaited, and pipelined requests still leave in order', async (t) => {
  const target = await recordingServer()
  t.after(target.close)
  const dir = folderWith({
    'token.mjs': `
      import { setTimeout as sleep } from 'node:timers/promises'
      const fetchToken = async () => { await sleep(5); return 'token-' + Math.random().toString(36).slice(2, 8) }
      export default [
        { path: '/a' },
        {
          path: '/b',
          setupRequest: async (request, context) => {
            context.token ??= await fetchToken()
            await sleep(1)
            return { ...request, headers: { ...request.headers, authorization: 'Bearer ' + context.token } }
          }
        }
      ]
    `
  })
  for (const workers of ['0', '1']) {
    target.byConnection.clear()
    const run = await runDyno(['load', '-c', '2', '-p', '4', '-a', '40', '-w', workers, '--requests', 'token.mjs', target.url], { cwd: dir })
    assert.equal(run.code, 0, run.stderr)
    assert.equal(target.all().length, 40)
    for (const seen of target.byConnection.values()) {
      seen.forEach((line, i) => {
        if (i % 2 === 0) assert.equal(line, 'GET /a -', `request ${i} on a connection: ${seen.join(', ')}`)
        else assert.match(line, /^GET \/b Bearer token-\w+$/, `request ${i} on a connection: ${seen.join(', ')}`)
      })
    }
  }
})

test('what setupRequest leaves out keeps its value: returning { body } does not send GET /', async (t) => {
  const target = await recordingServer()
  t.after(target.close)
  const dir = folderWith({
    'orders.mjs': `
      let n = 0
      export default [{ method: 'POST', path: '/orders', setupRequest: () => ({ body: 'order ' + ++n }) }]
    `
  })
  const run = await runDyno(['load', '-c', '1', '-a', '3', '--requests', 'orders.mjs', target.url], { cwd: dir })
  assert.equal(run.code, 0, run.stderr)
  assert.deepEqual(target.all(), ['POST /orders - order 1', 'POST /orders - order 2', 'POST /orders - order 3'])
})

test('a requests file with a bad method, path, header or body: one line naming the file and the request, exit 2, nothing sent', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const cases = [
    [[{ path: '/' }, { method: 'GE T' }], 'request 2: "GE T" is not an HTTP method'],
    [[{ path: 'orders' }], 'request 1: the path "orders" must start with "/" and hold no spaces, control or non-ASCII characters (percent-encode them)'],
    [[{ path: '/a b' }], 'request 1: the path "/a b" must start with "/"'],
    [[{}, {}, { headers: { 'x token': 'a' } }], 'request 3: "x token" is not a valid header name'],
    [[{ headers: { 'x-token': 'a\r\nx-evil: 1' } }], 'request 1: the value of header "x-token" contains a line break'],
    [[{ method: 'POST', body: { id: 1 } }], 'request 1: the body must be a string or a Buffer, not an object (JSON.stringify it)'],
    [['GET /'], 'request 1: it must be an object like { method, path, headers, body }, not the string "GET /"']
  ]
  for (const [requests, message] of /** @type {[unknown[], string][]} */ (cases)) {
    const dir = folderWith({ 'flow.json': JSON.stringify(requests) })
    const run = await runDyno(['load', '-a', '10', '--requests', 'flow.json', target.url], { cwd: dir })
    assert.equal(run.code, 2, run.stderr)
    assert.equal(run.stdout, '')
    assert.ok(oneLine(run.stderr).startsWith(`dyno load: requests file flow.json, ${message}`), run.stderr)
  }
  assert.equal(target.stats.requests, 0)
})

test('a hook that returns something unsendable ends the run with one line, exit 2, and the figures so far', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const dir = folderWith({
    'string.mjs': `let n = 0
      export default [{ path: '/x', setupRequest: (request) => ++n > 20 ? 'GET /x' : request }]`,
    'path.mjs': `let n = 0
      export default [{ path: '/x', setupRequest: (request) => ({ ...request, path: ++n > 20 ? '/a b' : '/x' }) }]`,
    'rejects.mjs': `let n = 0
      export default [{ path: '/x', setupRequest: async (request) => { if (++n > 20) throw new Error('token expired'); return request } }]`
  })
  const cases = [
    ['string.mjs', 'returned the string "GET /x"; return the request object it was given, changed, or nothing'],
    ['path.mjs', 'returned a request that cannot be sent: the path "/a b" must start with "/"'],
    ['rejects.mjs', 'threw: token expired']
  ]
  for (const [file, message] of cases) {
    for (const workers of ['0', '1']) {
      const run = await runDyno(['load', '-c', '1', '-d', '30', '-w', workers, '--requests', file, target.url], { cwd: dir })
      assert.equal(run.code, 2, `${file}: ${run.stderr}`)
      assert.ok(oneLine(run.stderr).startsWith(`dyno load: the setupRequest hook of request 1 (GET /x) in ${file} ${message}`), run.stderr)
      assert.match(run.stdout, /\n20 requests in [\d.]+s/)
    }
  }
})

test('requests given to load() are checked the same way', async () => {
  await assert.rejects(load({ url: 'http://127.0.0.1:1/', requests: [{ path: '/' }, { path: 'x' }] }), (err) => {
    assert.equal(/** @type {any} */ (err).code, 'DYNO_BAD_REQUESTS')
    assert.match(/** @type {Error} */ (err).message, /^request 2: the path "x" must start with "\/"/)
    return true
  })
  await assert.rejects(load({ url: 'http://127.0.0.1:1/', requests: [{ setupRequest: /** @type {any} */ ('nope') }] }), /request 1: setupRequest must be a function/)
})
