import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { runDyno } from '../../helpers/cli.js'
import { freePort, startHttpServer } from '../../helpers/servers.js'

/** @param {string} stderr */
function oneLine (stderr) {
  const lines = stderr.trim().split('\n')
  assert.equal(lines.length, 1, `expected one line, got:\n${stderr}`)
  return lines[0]
}

test('dyno --help lists the commands; dyno load --help documents every flag with its default', async () => {
  const top = await runDyno(['--help'])
  assert.equal(top.code, 0)
  assert.match(top.stdout, /Usage: dyno <command>/)
  assert.match(top.stdout, /\n {2}load +/)
  const help = await runDyno(['load', '--help'])
  assert.equal(help.code, 0)
  for (const flag of ['-c, --connections <n>', '-p, --pipelining', '-d, --duration', '-a, --amount', '-t, --timeout', '-w, --workers',
    '-R, --rate', '-m, --method', '-H, --header', '-b, --body', '-i, --input', '--requests', '--insecure', '--json', '-l, --latency', '--progress']) {
    assert.ok(help.stdout.includes(flag), `help lacks ${flag}`)
  }
  assert.match(help.stdout, /concurrent connections \(default: 10\)/)
  assert.match(help.stdout, /--no-progress/)
})

test('bad input: one line, exit code 2', async () => {
  const cases = [
    [['load'], /no URL given/],
    [['load', 'ftp://127.0.0.1/'], /uses ftp; dyno load speaks http:\/\/ and https:\/\//],
    [['load', 'http://'], /is not a URL/],
    [['load', '--conections', '5', 'http://127.0.0.1:1/'], /unknown flag --conections \(did you mean --connections\?\)/],
    [['load', '-x', 'http://127.0.0.1:1/'], /^dyno load: unknown flag -x; see dyno load --help$/],
    [['load', '-c', 'many', 'http://127.0.0.1:1/'], /-c\/--connections takes a whole number, not "many"/],
    [['load', '-c', '0', 'http://127.0.0.1:1/'], /-c\/--connections must be at least 1/],
    [['load', '-d', '10x', 'http://127.0.0.1:1/'], /-d\/--duration takes a duration like 10, 10s, 500ms or 2m/],
    [['load', '-H', 'nonsense', 'http://127.0.0.1:1/'], /-H "nonsense" is not a header/],
    [['load', '-i', '/no/such/file', 'http://127.0.0.1:1/'], /cannot read the body file \/no\/such\/file: no such file/],
    [['load', '--requests', '/no/such/file.json', 'http://127.0.0.1:1/'], /cannot read requests file/],
    [['load', '-c'], /--connections needs a value/],
    [['lod'], /unknown command "lod"/]
  ]
  for (const [args, message] of /** @type {[string[], RegExp][]} */ (cases)) {
    const { code, stderr } = await runDyno(args)
    assert.equal(code, 2, `${args.join(' ')}: ${stderr}`)
    assert.match(oneLine(stderr), message)
  }
})

test('nothing listening: one clear line, exit code 1', async () => {
  const port = await freePort()
  const { code, stderr } = await runDyno(['load', '-d', '1', `http://127.0.0.1:${port}/`])
  assert.equal(code, 1)
  assert.equal(oneLine(stderr), `dyno load: nothing is listening on 127.0.0.1:${port}; start the server first, or check the port`)
})

test('a target that dies during the run: results printed, exit code 1', async () => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  target.server.on('request', () => { if (target.stats.requests === 100) target.close() })
  const { code, stdout, stderr } = await runDyno(['load', '-d', '1.5', target.url])
  assert.equal(code, 1)
  assert.match(stdout, /requests in [\d.]+s/)
  assert.match(stdout, /refused connections/)
  assert.match(oneLine(stderr), /stopped accepting connections during the run/)
})

test('tables on stdout, microsecond resolution, and -l adds the percentile table', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const { code, stdout, stderr } = await runDyno(['load', '-c', '2', '-a', '500', '-l', target.url])
  assert.equal(code, 0, stderr)
  assert.match(stdout, /^Running 500 requests @ http:\/\/127\.0\.0\.1:\d+\/\n2 connections\n/)
  assert.match(stdout, /│ Latency │ \d+\.\d\d ms │/)
  assert.match(stdout, /│ Req\/Sec +│/)
  assert.match(stdout, /│ Bytes\/Sec │/)
  assert.match(stdout, /│ 99\.999% +│ \d+\.\d\d ms │/)
  assert.match(stdout, /\n500 requests in \d+\.\d\ds, [\d.]+ kB read\n/)
  assert.equal(stderr, '')
})

test('--json prints one document and nothing else', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const { code, stdout } = await runDyno(['load', '-a', '100', '--json', target.url])
  assert.equal(code, 0)
  const result = JSON.parse(stdout)
  assert.equal(result.schemaVersion, 1)
  assert.equal(result.requests.completed, 100)
  assert.equal(typeof result.latency.histogram.data, 'string')
})

test('Ctrl-C stops the run and still prints the results', async (t) => {
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let dyno
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  // Ctrl-C once the server has answered some requests, however long dyno took to start.
  target.server.on('request', () => { if (target.stats.requests === 100) dyno?.kill('SIGINT') })
  const { code, stdout } = await runDyno(['load', '-d', '30', target.url], { onSpawn: (child) => { dyno = child } })
  assert.equal(code, 130)
  assert.match(stdout, /│ Latency │/)
  const seconds = Number(/requests in ([\d.]+)s, .* read \(interrupted\)/.exec(stdout)?.[1])
  assert.ok(seconds < 30, stdout)
})

test('method, headers and a body from a file reach the server', async (t) => {
  /** @type {{ method?: string, type?: string, token?: string, body: string }[]} */
  const seen = []
  const target = await startHttpServer((req, res) => {
    let body = ''
    req.on('data', (d) => { body += d })
    req.on('end', () => {
      seen.push({ method: req.method, type: req.headers['content-type'], token: /** @type {string} */ (req.headers['x-token']), body })
      res.end(body)
    })
  })
  t.after(target.close)
  const dir = mkdtempSync(join(tmpdir(), 'dyno-'))
  writeFileSync(join(dir, 'body.json'), '{"from":"file"}')
  const run = await runDyno(['load', '-a', '3', '-m', 'post', '-H', 'content-type=application/json', '-H', 'x-token: a=b', '-i', 'body.json', target.url], { cwd: dir })
  assert.equal(run.code, 0, run.stderr)
  assert.deepEqual(seen[0], { method: 'POST', type: 'application/json', token: 'a=b', body: '{"from":"file"}' })
  const inline = await runDyno(['load', '-a', '1', '-m', 'PUT', '-b', 'inline body', target.url])
  assert.equal(inline.code, 0)
  assert.deepEqual(seen[3], { method: 'PUT', type: undefined, token: undefined, body: 'inline body' })
})

test('a requests file: a sequence per connection, with a unique body built for every request', async (t) => {
  /** @type {string[]} */
  const seen = []
  const target = await startHttpServer((req, res) => {
    let body = ''
    req.on('data', (d) => { body += d })
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} ${body}`)
      res.end(req.url === '/login' ? 'token-123' : 'ok')
    })
  })
  t.after(target.close)
  const dir = mkdtempSync(join(tmpdir(), 'dyno-'))
  writeFileSync(join(dir, 'flow.mjs'), `
    import { randomUUID } from 'node:crypto'
    export default [
      { method: 'POST', path: '/login', body: 'user=a', onResponse: (status, body, context) => { context.token = body } },
      {
        method: 'POST',
        path: '/orders',
        setupRequest: (request, context) => ({ ...request, body: JSON.stringify({ id: randomUUID(), token: context.token }) })
      }
    ]
  `)
  writeFileSync(join(dir, 'flow.json'), JSON.stringify([{ path: '/a' }, { path: '/b', method: 'DELETE' }]))
  const run = await runDyno(['load', '-c', '2', '-a', '40', '-w', '2', '--requests', 'flow.mjs', target.url], { cwd: dir })
  assert.equal(run.code, 0, run.stderr)
  assert.equal(seen.length, 40)
  const orders = seen.filter((s) => s.startsWith('POST /orders'))
  assert.equal(orders.length, 20)
  // Unique payloads, and each carries the token its connection's login returned.
  assert.equal(new Set(orders).size, 20)
  for (const order of orders) assert.match(order, /"token":"token-123"/)
  seen.length = 0
  const json = await runDyno(['load', '-c', '1', '-a', '4', '--requests', 'flow.json', target.url], { cwd: dir })
  assert.equal(json.code, 0, json.stderr)
  assert.deepEqual(seen, ['GET /a ', 'DELETE /b ', 'GET /a ', 'DELETE /b '])
})

test('a request hook that throws: one line naming it, exit code 2', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const dir = mkdtempSync(join(tmpdir(), 'dyno-'))
  writeFileSync(join(dir, 'broken.mjs'), `
    export default [
      { path: '/fine' },
      { path: '/broken', setupRequest: () => { throw new Error('no token yet') } }
    ]
  `)
  for (const workers of ['0', '1']) {
    const run = await runDyno(['load', '-d', '2', '-w', workers, '--requests', 'broken.mjs', target.url], { cwd: dir })
    assert.equal(run.code, 2, run.stderr)
    assert.equal(oneLine(run.stderr), 'dyno load: the setupRequest hook of request 2 (GET /broken) in broken.mjs threw: no token yet')
  }
})
