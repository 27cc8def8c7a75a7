#!/usr/bin/env node
/**
 * What profiling costs the app: req/s of a server that saturates one core,
 * without a profiler, under `dyno flame`, and under 0x, in one run.
 *
 * The app is pinned to CPU 0, the load (dyno load, 50 connections) to
 * CPU 1. Modes are interleaved and repeated; the median req/s of each is
 * compared with the unprofiled app's.
 *
 *   node bench/flame.js [--rounds 5] [--duration 5] [--sampling-interval 1000]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { median } from './lib/measure.js'
import { loadCommand as loadOf, runCommand, runPlain } from './lib/tool-runs.js'
import { peerTool } from './lib/peers.js'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '5' },
    'sampling-interval': { type: 'string', default: '1000' }
  }
})
const rounds = Number(values.rounds)
const duration = Number(values.duration)
const root = fileURLToPath(new URL('..', import.meta.url))
const app = join(root, 'bench/apps/hello.js')
const dyno = join(root, 'bin/dyno.js')
const zeroX = peerTool('0x/cmd.js')

const loadCommand = (/** @type {string} */ out) => loadOf(dyno, duration, out)

/** @type {Record<string, (dir: string, out: string) => Promise<unknown>>} */
const modes = {
  'no profiler': (dir, out) => runPlain(app, loadCommand(out)),
  'dyno flame': (dir, out) => runCommand(['taskset', '-c', '0', process.execPath, dyno, 'flame', '--sampling-interval', values['sampling-interval'] ?? '1000', '--out', dir,
    '--on-port', loadCommand(out), '--', process.execPath, app], dir),
  '0x': (dir, out) => runCommand(['taskset', '-c', '0', process.execPath, zeroX, '--output-dir', join(dir, '0x'), '--on-port', loadCommand(out), '--', process.execPath, app], dir)
}

console.log(`app: hello-world server on CPU 0; load: dyno load -c 50 on CPU 1; ${duration} s runs, ${rounds} rounds, interleaved`)
/** @type {Record<string, number[]>} */
const rps = Object.fromEntries(Object.keys(modes).map((m) => [m, []]))
for (let round = 0; round < rounds; round++) {
  for (const [name, start] of Object.entries(modes)) {
    const dir = mkdtempSync(join(tmpdir(), 'dyno-bench-flame-'))
    const out = join(dir, 'load.json')
    await start(dir, out)
    rps[name].push(JSON.parse(readFileSync(out, 'utf8')).requests.average)
    rmSync(dir, { recursive: true, force: true })
  }
}
const base = median(rps['no profiler'])
console.log('\nmode          median req/s   kept   (runs)')
for (const [name, list] of Object.entries(rps)) {
  const m = median(list)
  console.log(`${name.padEnd(13)} ${Math.round(m).toLocaleString('en-US').padStart(12)}   ${((100 * m) / base).toFixed(1).padStart(4)}%   (${list.map((x) => Math.round(x)).join(' ')})`)
}
