#!/usr/bin/env node
/**
 * How fast dyno reads and analyses heap snapshots, and with how much
 * memory, beside memlab on the same files. Snapshots of 50 MB to 1 GB (or
 * the sizes given, in MB) are generated on the fly by bench/heap/fill.cjs in
 * a child process, measured, then deleted. Each tool runs in a fresh
 * process per measurement; peak RSS is the process's own maxRSS.
 *
 *   node bench/heap.js                      50 200 500 1000 MB, 3 runs each
 *   node bench/heap.js 50 200 --runs 5
 *   MEMLAB=/tmp/memlab/node_modules node bench/heap.js   (a folder holding @memlab/heap-analysis)
 *
 * Set HEAP_BENCH_DIR for where snapshots are written (default: /tmp/heapbench).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from '../lib/stats/describe.js'

const here = fileURLToPath(new URL('heap/', import.meta.url))
const args = process.argv.slice(2)
const runsAt = args.indexOf('--runs')
const runs = runsAt === -1 ? 3 : Number(args[runsAt + 1])
const sizes = args.filter((a, i) => /^\d+$/.test(a) && i !== runsAt + 1).map(Number)
const memlab = process.env.MEMLAB ?? '/tmp/memlab/node_modules'
const hasMemlab = existsSync(join(memlab, '@memlab/heap-analysis'))
const dir = process.env.HEAP_BENCH_DIR ?? '/tmp/heapbench'
mkdirSync(dir, { recursive: true })

/** Records per MB of snapshot, as fill.cjs makes them. */
const RECORDS_PER_MB = 920

/** @param {string} script @param {string[]} scriptArgs @param {string[]} [nodeFlags] */
function measure (script, scriptArgs, nodeFlags = []) {
  const run = spawnSync(process.execPath, [...nodeFlags, script, ...scriptArgs], { encoding: 'utf8', maxBuffer: 1 << 20 })
  if (run.status !== 0) return { failed: (run.stderr.match(/(heap out of memory|Error[^\n]*)/)?.[1] ?? `exit ${run.status ?? run.signal}`) }
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}')
}

/** @param {{ ms: number, maxRssBytes: number, failed?: string }[]} results */
function summary (results) {
  const failed = results.find((r) => r.failed)
  if (failed) return { failed: failed.failed }
  const spread = (/** @type {number[]} */ xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) })
  return { seconds: spread(results.map((r) => r.ms / 1000)), rssMB: spread(results.map((r) => r.maxRssBytes / 1e6)) }
}

/** @param {any} s */
function show (s) {
  if (s.failed) return `failed: ${s.failed}`
  return `${s.seconds.median.toFixed(2)} s (${s.seconds.min.toFixed(2)}–${s.seconds.max.toFixed(2)}), peak RSS ${Math.round(s.rssMB.median)} MB (${Math.round(s.rssMB.min)}–${Math.round(s.rssMB.max)})`
}

console.log(`dyno heap bench: ${runs} runs per tool and size; Node ${process.version}; memlab ${hasMemlab ? 'from ' + memlab : 'not found (set MEMLAB)'}`)
for (const mb of sizes.length > 0 ? sizes : [50, 200, 500, 1000]) {
  const file = join(dir, `bench-${mb}mb.heapsnapshot`)
  const made = spawnSync(process.execPath, ['--max-old-space-size=8192', join(here, 'fill.cjs'), String(mb * RECORDS_PER_MB), file], { encoding: 'utf8' })
  if (made.status !== 0) {
    console.log(`${mb} MB: could not build the heap: ${made.stderr.split('\n')[0]}`)
    continue
  }
  const bytes = statSync(file).size
  try {
    const dyno = summary(Array.from({ length: runs }, () => measure(join(here, 'dyno-read.js'), [file], ['--max-old-space-size=8192'])))
    const peer = hasMemlab ? summary(Array.from({ length: runs }, () => measure(join(here, 'memlab-read.cjs'), [file, memlab], ['--max-old-space-size=12000']))) : null
    console.log(`\n${(bytes / 1e6).toFixed(0)} MB snapshot`)
    console.log(`  dyno    ${show(dyno)}`)
    if (peer) console.log(`  memlab  ${show(peer)}`)
  } finally {
    rmSync(file, { force: true })
  }
}
