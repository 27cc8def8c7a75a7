import assert from 'node:assert/strict'
import { test } from 'node:test'
import { load } from '../../lib/index.js'
import { mergeResults } from '../../lib/kinds/merge/merge.js'
import { runDyno } from '../helpers/cli.js'
import { startHttpServer } from '../helpers/servers.js'

test('a run says whether it wrote past the sockets\' streams: it does on this Node', async (t) => {
  const server = await startHttpServer((req, res) => res.end('ok'))
  t.after(server.close)
  const result = await load({ url: server.url, amount: 50, connections: 2 })
  assert.equal(result.requests.completed, 50)
  assert.equal(result.generator.rawWrite, true)
})

test('under --pending-deprecation a run writes through the streams, says so, and warns of nothing', async (t) => {
  const server = await startHttpServer((req, res) => res.end('ok'))
  t.after(server.close)
  const run = await runDyno(['load', '-a', '50', '-c', '2', '--json', server.url], { env: { NODE_OPTIONS: '--pending-deprecation' } })
  assert.equal(run.stderr, '')
  assert.equal(run.code, 0)
  const result = JSON.parse(run.stdout)
  assert.equal(result.requests.completed, 50)
  assert.equal(result.generator.rawWrite, false)
})

test('merged generators wrote raw only when each did; an older result does not say', async (t) => {
  const server = await startHttpServer((req, res) => res.end('ok'))
  t.after(server.close)
  const raw = await load({ url: server.url, amount: 10, connections: 1 })
  const stream = { ...raw, generator: { ...raw.generator, rawWrite: false } }
  const older = { ...raw, generator: { ...raw.generator, rawWrite: null } }
  const merge = (/** @type {import('../../lib/load/summary.js').LoadResult[]} */ results) =>
    mergeResults(results.map((result, i) => ({ name: `g${i}`, result }))).generator.rawWrite
  assert.equal(merge([raw, raw]), true)
  assert.equal(merge([raw, stream]), false)
  assert.equal(merge([raw, older]), null)
})
