/**
 * The timing tier (see scripts/test.js): three generators of one load,
 * merged, against one generator making the same load alone. On a quiet
 * machine their latencies are of one order; on a busy one three processes
 * share its cores, and the merged latency says so. The default suite checks
 * that the merge is exact (test/kinds/merge/).
 */
import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { runDyno } from '../helpers/cli.js'
import { startHttpServer } from '../helpers/servers.js'

test('three generators merged and one alone, on the same load: latencies of one order', async (t) => {
  const server = await startHttpServer((req, res) => res.end('ok'))
  const dir = await mkdtemp(join(tmpdir(), 'dyno-merge-timing-'))
  t.after(async () => { await server.close(); await rm(dir, { recursive: true, force: true }) })
  const runs = await Promise.all([0, 1, 2].map((i) => runDyno(['load', '--segment', `${i}/3`, '-a', '900', '-c', '6', '--json', server.url])))
  const files = []
  for (const [i, run] of runs.entries()) {
    assert.equal(run.code, 0, run.stderr)
    files.push(join(dir, `gen-${i}.json`))
    await writeFile(files[i], run.stdout)
  }
  const merged = await runDyno(['merge', '--json', ...files])
  assert.equal(merged.code, 0, merged.stderr)
  const single = await runDyno(['load', '-a', '900', '-c', '6', '--json', server.url])
  assert.equal(single.code, 0, single.stderr)
  const mergedP50 = JSON.parse(merged.stdout).latency.percentiles['50']
  const p50 = JSON.parse(single.stdout).latency.percentiles['50']
  assert.ok(mergedP50 < p50 * 5 && p50 < mergedP50 * 5, `merged p50 ${mergedP50} ms, single ${p50} ms`)
})
