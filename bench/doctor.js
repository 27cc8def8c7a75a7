#!/usr/bin/env node
/**
 * What `dyno doctor` costs the app: req/s of a hello-world server that
 * saturates one core, with no tool, under `dyno doctor` and under `clinic
 * doctor`, side by side in one run, and the agent's own CPU time a second on
 * an idle app.
 *
 * The app is pinned to CPU 0, the load (dyno load, 50 connections) to CPU 1.
 * Each round runs every mode once, in turn, in the reverse order every other round; a mode's req/s over the no-tool
 * run of the same round is its ratio, and the rounds give its geometric mean
 * with a 95% interval (a paired t-test on the log ratios).
 *
 * clinic doctor runs when it is installed where --clinic says (it is not a
 * dependency of dyno): `npm install --prefix /tmp/clinic clinic`, then
 * `node bench/doctor.js --clinic /tmp/clinic/node_modules/.bin/clinic`.
 *
 *   node bench/doctor.js [--rounds 8] [--duration 5] [--clinic path]
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { compareRounds } from '../lib/stats/paired.js'
import { median } from './lib/measure.js'
import { loadCommand as loadOf, runCommand, runPlain } from './lib/tool-runs.js'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    duration: { type: 'string', default: '5' },
    clinic: { type: 'string' }
  }
})
const rounds = Number(values.rounds)
const duration = Number(values.duration)
const root = fileURLToPath(new URL('..', import.meta.url))
const app = join(root, 'bench/apps/hello.js')
const dyno = join(root, 'bin/dyno.js')
const clinic = values.clinic && existsSync(values.clinic) ? values.clinic : null

const loadCommand = (/** @type {string} */ out) => loadOf(dyno, duration, out)

/** The collector's own time on the app's main thread, ms a second under load, one figure per dyno doctor run. */
const selfCost = /** @type {number[]} */ ([])

/** @type {Record<string, (dir: string, out: string) => Promise<unknown>>} */
const modes = {
  'no tool': (dir, out) => runPlain(app, loadCommand(out)),
  'dyno doctor': async (dir, out) => {
    await runCommand(['taskset', '-c', '0', process.execPath, dyno, 'doctor', '--out', dir, '--on-port', loadCommand(out), '--', process.execPath, app], dir)
    selfCost.push(mainThreadCost(join(dir, readdirSync(dir).find((f) => f.endsWith('-doctor')) ?? '')))
  }
}

/**
 * Over the window under load: the ms a second the collector's ticks took on the main thread.
 * @param {string} folder a doctor run folder
 */
function mainThreadCost (folder) {
  const { window } = JSON.parse(readFileSync(join(folder, 'doctor.json'), 'utf8'))
  let ms = 0
  for (const line of readFileSync(join(folder, 'doctor.jsonl'), 'utf8').split('\n')) {
    if (!line) continue
    const sample = JSON.parse(line)
    if (sample.t > window.startMs && sample.t <= window.endMs) ms += sample.self ?? 0
  }
  return ms / window.seconds
}
if (clinic) {
  modes['clinic doctor'] = (dir, out) => runCommand(['taskset', '-c', '0', clinic, 'doctor', '--no-open', '--on-port', loadCommand(out), '--', process.execPath, app], dir, { ...process.env, NO_INSIGHT: '1' })
}

/**
 * The agent's own CPU time a second: the app idle under dyno doctor for
 * `seconds`, its process's CPU read from the doctor samples.
 * @param {number} seconds
 */
async function idleAgentCpu (seconds) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-bench-doctor-idle-'))
  await runCommand([process.execPath, dyno, 'doctor', '--out', dir, '--on-port', `sleep ${seconds}`, '--', process.execPath, app], dir)
  const folder = join(dir, readdirSync(dir)[0])
  const { window } = JSON.parse(readFileSync(join(folder, 'doctor.json'), 'utf8'))
  let cpu = 0
  for (const line of readFileSync(join(folder, 'doctor.jsonl'), 'utf8').split('\n')) {
    if (!line) continue
    const sample = JSON.parse(line)
    if (sample.t > window.startMs && sample.t <= window.endMs) cpu += sample.cpu.user + sample.cpu.system
  }
  rmSync(dir, { recursive: true, force: true })
  return cpu / window.seconds
}

console.log(`app: hello-world server on CPU 0; load: dyno load -c 50 on CPU 1; ${duration} s runs, ${rounds} rounds, interleaved`)
if (!clinic) console.log('clinic doctor: not measured (give --clinic <path to its bin>; see the top of this file)')
/** @type {Record<string, number[]>} */
const rps = Object.fromEntries(Object.keys(modes).map((m) => [m, []]))
for (let round = 0; round < rounds; round++) {
  // A B C, C B A, …: no mode always runs first, on a machine just idle or just warm.
  const order = round % 2 ? Object.entries(modes).reverse() : Object.entries(modes)
  for (const [name, start] of order) {
    const dir = mkdtempSync(join(tmpdir(), 'dyno-bench-doctor-'))
    const out = join(dir, 'load.json')
    await start(dir, out)
    rps[name].push(JSON.parse(readFileSync(out, 'utf8')).requests.average)
    rmSync(dir, { recursive: true, force: true })
  }
}
console.log('\nmode            median req/s   kept (95% interval)      runs')
for (const [name, list] of Object.entries(rps)) {
  const kept = name === 'no tool' ? null : compareRounds(rps['no tool'], list)
  const interval = kept ? `${(kept.ratio * 100).toFixed(1)}% (${(kept.low * 100).toFixed(1)}–${(kept.high * 100).toFixed(1)}%)` : '100%'
  console.log(`${name.padEnd(15)} ${Math.round(median(list)).toLocaleString('en-US').padStart(12)}   ${interval.padEnd(24)} ${list.map((x) => Math.round(x)).join(' ')}`)
}
console.log(`\nthe collector's ticks on the app's main thread, under load: ${median(selfCost).toFixed(2)} ms a second (median of ${selfCost.length} runs)`)
console.log(`the agent's own CPU on an idle app (main thread and worker): ${(await idleAgentCpu(5)).toFixed(1)} ms a second`)
