#!/usr/bin/env node
/**
 * What beyond-one-machine costs:
 *   1. merging: `dyno merge` of 100 results of 60 s each (60 per-second
 *      samples and a latency histogram of 120,000 requests apiece), in
 *      process and through the CLI, repeated, with the median and spread;
 *   2. `--segment 0/1` against a plain run: paired rounds of `dyno load -a`
 *      against one local server (plain, segment; segment, plain; …), the
 *      requests a second of each, with the ratio's 95% interval.
 *
 *   node bench/merge.js [--repeats 7] [--rounds 10] [--amount 20000]
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { LatencyRecorder } from '../lib/load/histogram.js'
import { resolveOptions } from '../lib/load/options.js'
import { summarize } from '../lib/load/summary.js'
import { mergeResults } from '../lib/kinds/merge/merge.js'
import { compareRounds } from '../lib/stats/paired.js'
import { seededRandom } from '../test/helpers/random.js'

const { values } = parseArgs({ options: { repeats: { type: 'string', default: '7' }, rounds: { type: 'string', default: '10' }, amount: { type: 'string', default: '20000' } } })
const repeats = Number(values.repeats)
const rounds = Number(values.rounds)
const amount = Number(values.amount)
const dyno = fileURLToPath(new URL('../bin/dyno.js', import.meta.url))

/** A generator's 60 s result. @param {number} index @param {() => number} uniform */
function generatorResult (index, uniform) {
  const latency = new LatencyRecorder()
  for (let i = 0; i < 120_000; i++) latency.record(200 + 80_000 * uniform() ** 8)
  const raw = {
    startedAt: 1_700_000_000_000 + Math.round(uniform() * 300),
    durationMs: 60_000,
    sent: latency.total,
    responses: latency.total,
    pending: 0,
    bytes: latency.total * 120,
    dropped: 0,
    peakConnections: 10,
    statusCodes: { 200: latency.total },
    errors: { timeout: 0, reset: 0, refused: 0, closed: 0, invalid: 0, tls: 0, other: 0 },
    latency,
    perSecond: { responses: Array(60).fill(2000), bytes: Array(60).fill(240_000) },
    targetRefusing: false,
    failure: null
  }
  const options = resolveOptions({ url: 'http://10.0.0.1:8080/', connections: 1000, duration: 60, segment: { index, count: 100 } })
  return summarize(raw, options, { interrupted: false, cpuMs: 20_000, host: `gen-${index}`, pid: 1 })
}

/** @param {number[]} xs */
function spread (xs) {
  const sorted = [...xs].sort((a, b) => a - b)
  return { median: sorted[sorted.length >> 1], min: sorted[0], max: sorted[sorted.length - 1] }
}

/** @param {string[]} args @returns {Promise<string>} */
function run (args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [dyno, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d) => { out += d })
    child.on('close', (code) => code === 0 ? resolve(out) : reject(new Error(`dyno ${args.join(' ')} exited with ${code}`)))
  })
}

const random = seededRandom(100)
const results = Array.from({ length: 100 }, (_, i) => generatorResult(i, random.uniform))
const dir = mkdtempSync(join(tmpdir(), 'dyno-bench-merge-'))
const files = results.map((r, i) => {
  const file = join(dir, `gen-${i}.json`)
  writeFileSync(file, JSON.stringify(r, null, 2))
  return file
})
const inProcess = []
const cli = []
for (let i = 0; i < repeats; i++) {
  let t = performance.now()
  mergeResults(results.map((result, n) => ({ name: `gen-${n}`, result })))
  inProcess.push(performance.now() - t)
  t = performance.now()
  await run(['merge', '--json', ...files])
  cli.push(performance.now() - t)
}
rmSync(dir, { recursive: true, force: true })
const a = spread(inProcess)
const b = spread(cli)
console.log(`merge of 100 results of 60 s (120,000 requests each), ${repeats} times:`)
console.log(`  in process: median ${a.median.toFixed(0)} ms (${a.min.toFixed(0)} to ${a.max.toFixed(0)})`)
console.log(`  dyno merge --json, a new process reading 100 files: median ${b.median.toFixed(0)} ms (${b.min.toFixed(0)} to ${b.max.toFixed(0)})`)

const server = createServer((req, res) => res.end('hello'))
await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
const url = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/`
const plain = []
const segment = []
const rps = async (/** @type {string[]} */ extra) => JSON.parse(await run(['load', ...extra, '-c', '10', '-a', String(amount), '--json', url])).requests.average
for (let i = 0; i < rounds; i++) {
  // A B, then B A: whatever drifts over the run falls on both alike.
  if (i % 2 === 0) {
    plain.push(await rps([]))
    segment.push(await rps(['--segment', '0/1']))
  } else {
    segment.push(await rps(['--segment', '0/1']))
    plain.push(await rps([]))
  }
}
server.close()
const ratio = compareRounds(plain, segment)
console.log(`--segment 0/1 against a plain run, ${rounds} paired rounds of -a ${amount} -c 10 on one local server:`)
console.log(`  requests a second, segment / plain: ${ratio.ratio.toFixed(3)} (95% interval ${ratio.low.toFixed(3)} to ${ratio.high.toFixed(3)})`)
