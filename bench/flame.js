#!/usr/bin/env node
/**
 * What profiling costs the app: req/s of a server that saturates one core,
 * without a profiler, under `dyno flame`, and under 0x, in one run.
 *
 * The app is pinned to CPU 0, the load (dyno load, 50 connections) to
 * CPU 1. Modes are interleaved and repeated; each mode's req/s over the
 * unprofiled app's in the same round is its ratio, and the rounds give its
 * geometric mean with a 95% interval (a paired t-test on the log ratios).
 *
 * --source-maps runs the same server written in TypeScript and compiled by
 * tsc with a source map beside it (bench/apps/hello.ts), which dyno flame
 * maps the profile through.
 *
 *   node bench/flame.js [--rounds 5] [--duration 5] [--sampling-interval 1000] [--source-maps]
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { compareRounds } from '../lib/stats/paired.js'
import { median } from './lib/measure.js'
import { loadCommand as loadOf, runCommand, runPlain } from './lib/tool-runs.js'
import { peerTool } from './lib/peers.js'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '5' },
    'sampling-interval': { type: 'string', default: '1000' },
    'source-maps': { type: 'boolean', default: false }
  }
})
const rounds = Number(values.rounds)
const duration = Number(values.duration)
const root = fileURLToPath(new URL('..', import.meta.url))
const built = values['source-maps'] ? compileHello() : null
const app = built ? join(built, 'hello.js') : join(root, 'bench/apps/hello.js')
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
console.log(`\nmode          median req/s   kept (95% interval)   runs${built ? ' (the app compiled from TypeScript, with its source map)' : ''}`)
for (const [name, list] of Object.entries(rps)) {
  const ratio = compareRounds(rps['no profiler'], list)
  const interval = Number.isFinite(ratio.low) ? ` (${(100 * ratio.low).toFixed(1)}–${(100 * ratio.high).toFixed(1)}%)` : ''
  const kept = name === 'no profiler' ? '100%' : `${(100 * ratio.ratio).toFixed(1)}%${interval}`
  console.log(`${name.padEnd(13)} ${Math.round(median(list)).toLocaleString('en-US').padStart(12)}   ${kept.padEnd(20)}  ${list.map((x) => Math.round(x)).join(' ')}`)
}
if (built) rmSync(built, { recursive: true, force: true })

/** bench/apps/hello.ts compiled by tsc with a source map, in a temporary folder. */
function compileHello () {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-bench-hello-ts-'))
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  execFileSync(process.execPath, [tsc, join(root, 'bench/apps/hello.ts'), '--sourceMap', '--module', 'nodenext', '--target', 'es2022', '--types', 'node', '--typeRoots', join(root, 'node_modules/@types'), '--outDir', dir], { stdio: 'inherit', cwd: dir })
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  return dir
}
