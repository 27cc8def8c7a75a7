import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { load } from '../../lib/index.js'
import { MAX_PIPELINING } from '../../lib/load/limits.js'
import { DYNO, oneLine, runDyno } from '../helpers/cli.js'
import { startHttpServer, startRawServer } from '../helpers/servers.js'

/**
 * Runs the CLI under a shell whose open-file limit is `files`.
 * @param {number} files @param {string[]} args
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function runWithFileLimit (files, args) {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', `ulimit -n ${files} && exec "$0" "$@"`, process.execPath, DYNO, ...args], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d })
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`dyno ${args.join(' ')} under ulimit -n ${files} did not finish within 30 s\nstdout: ${stdout}\nstderr: ${stderr}`))
    }, 30_000)
    child.on('error', reject)
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }) })
  })
}

test('-c above the open-file limit: refused up front, saying the limit and how to raise it', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const { code, stdout, stderr } = await runWithFileLimit(256, ['load', '-c', '1000', '-d', '5', target.url])
  assert.equal(code, 2, stderr)
  assert.equal(stdout, '')
  assert.match(oneLine(stderr), /^dyno load: -c 1000 needs an open file per connection, and this process may open \d+ more \(its open-file limit is 256\); raise it with "ulimit -n \d+" .*or lower -c$/)
  assert.equal(target.stats.connections, 0)
  // Within the limit, the same shell runs the load.
  const fits = await runWithFileLimit(256, ['load', '-c', '100', '-a', '200', target.url])
  assert.equal(fits.code, 0, fits.stderr)
})

test('the open model grows up to the open-file limit, not past it', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const refused = await runWithFileLimit(256, ['load', '-R', '10', '-d', '1', '--max-connections', '1000', target.url])
  assert.equal(refused.code, 2, refused.stderr)
  assert.match(oneLine(refused.stderr), /--max-connections 1000 needs an open file per connection/)
  // The default ceiling (1000) is cut down to what the process may open.
  const fits = await runWithFileLimit(256, ['load', '-R', '10', '-d', '0.5', target.url])
  assert.equal(fits.code, 0, fits.stderr)
})

test('absurd -c, -p and -w: one line, exit code 2, nothing allocated', async () => {
  const cases = [
    [['-p', '1e8'], /^dyno load: -p 100000000 is more than the 10,000 requests in flight dyno keeps on one connection; lower -p$/],
    [['-p', '1e10'], /-p 10000000000 is more than/],
    [['-c', '1e9'], /^dyno load: -c 1000000000 needs a local port per connection/],
    [['-c', '1000', '-p', String(MAX_PIPELINING)], /-c 1000 with -p 10000 keeps 10,000,000 requests in flight; dyno keeps at most 1,000,000; lower -c or -p/],
    [['-c', '5000', '-w', '5000'], /-w 5000 starts 5000 threads/]
  ]
  for (const [flags, message] of /** @type {[string[], RegExp][]} */ (cases)) {
    const { code, stdout, stderr } = await runDyno(['load', ...flags, '-d', '1', 'http://127.0.0.1:1/'])
    assert.equal(code, 2, `${flags.join(' ')}: ${stderr}`)
    assert.equal(stdout, '')
    assert.match(oneLine(stderr), message)
  }
})

test('a stop is heard while thousands of connections are still being opened', async (t) => {
  const target = await startRawServer(() => {})
  t.after(target.close)
  const controller = new AbortController()
  const run = load({ url: target.url, connections: 2000, duration: 30, signal: controller.signal })
  // The first batch opens at once; the stop lands before the rest.
  setImmediate(() => controller.abort())
  const result = await run
  assert.equal(result.interrupted, true)
  assert.ok(result.peakConnections < 2000, `opened ${result.peakConnections} connections after the stop`)
})

test('a stop while the run is being prepared ends it at once, with what it holds', async (t) => {
  const target = await startHttpServer((req, res) => res.end('ok'))
  t.after(target.close)
  const dir = mkdtempSync(join(tmpdir(), 'dyno-stop-'))
  writeFileSync(join(dir, 'flow.json'), JSON.stringify([{ path: '/' }]))
  for (const workers of [0, 1]) {
    const controller = new AbortController()
    // The requests file is read first; the stop lands meanwhile.
    const run = load({ url: target.url, requestsFile: join(dir, 'flow.json'), duration: 600, workers, signal: controller.signal })
    controller.abort()
    const result = await run
    assert.equal(result.interrupted, true)
    assert.equal(result.requests.completed, 0)
  }
})
