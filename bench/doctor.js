#!/usr/bin/env node
/**
 * What `dyno doctor` costs the app: requests a hello-world server answers
 * per second of CPU under `dyno doctor`, under `clinic doctor`, and under
 * the floor (bench/lib/doctor-floor.cjs: what any doctor sampling every 10 ms
 * pays, whatever it does with the figures), each as a share of the same with
 * no tool; and the agent's own CPU time a second on an idle app.
 *
 * Each mode runs beside a server with no tool, both on one CPU and loaded at
 * once, and keeps its requests per CPU-second over the no-tool server's
 * (bench/lib/pair-runs.js says how, and why not req/s run after run).
 *
 * clinic doctor runs when it is installed where --clinic says (it is not a
 * dependency of dyno): `npm install --prefix /tmp/clinic clinic`, then
 * `node bench/doctor.js --clinic /tmp/clinic/node_modules/.bin/clinic`.
 *
 *   node bench/doctor.js [--runs 6] [--rounds 6] [--burst 2] [--clinic path]
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { median } from './lib/measure.js'
import { PAIR_SHAPE, keptOverRuns, pairOptions, pairRun } from './lib/pair-runs.js'
import { runCommand } from './lib/tool-runs.js'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '6' },
    burst: { type: 'string', default: '2' },
    clinic: { type: 'string' }
  }
})
const { runs, rounds, burst } = pairOptions(values)
const root = fileURLToPath(new URL('..', import.meta.url))
const app = join(root, 'bench/apps/hello.js')
const dyno = join(root, 'bin/dyno.js')
const floor = join(root, 'bench/lib/doctor-floor.cjs')
const clinic = values.clinic && existsSync(values.clinic) ? values.clinic : null

/** @typedef {import('./lib/pair-runs.js').HowToStart} HowToStart */

/** @type {HowToStart} */
const noTool = () => ({ command: [process.execPath, app] })
/** @type {Record<string, HowToStart>} */
const modes = {
  'dyno doctor': (dir, onPort) => ({
    command: [process.execPath, dyno, 'doctor', '--out', dir, '--on-port', onPort, '--', process.execPath, app]
  }),
  floor: () => ({ command: [process.execPath, '-r', floor, app] })
}
if (clinic) {
  modes['clinic doctor'] = (dir, onPort) => ({
    command: [clinic, 'doctor', '--no-open', '--on-port', onPort, '--', process.execPath, app],
    env: { NO_INSIGHT: '1' }
  })
}

/** Median ms a collector's tick took on the main thread while requests were answered, one per dyno doctor run. */
const tickCosts = /** @type {number[]} */ ([])

/**
 * One run of a mode beside a server with no tool. dyno doctor ends as on
 * Ctrl-C and writes its run folder, whose tick costs are kept; clinic
 * doctor's analysis is not wanted.
 * @param {string} name @param {HowToStart} tool
 */
function modeRun (name, tool) {
  const dyno = name === 'dyno doctor'
  return pairRun({
    plain: noTool,
    tool,
    rounds,
    burst,
    end: dyno ? 'SIGINT' : 'SIGKILL',
    afterEnd: dyno ? (dir) => { const ms = tickMs(dir); if (ms >= 0) tickCosts.push(ms) } : undefined
  })
}

/** @param {string} dir the --out folder of a dyno doctor run */
function tickMs (dir) {
  const folder = readdirSync(dir).find((f) => f.endsWith('-doctor'))
  if (!folder) return NaN
  const costs = []
  for (const line of readFileSync(join(dir, folder, 'doctor.jsonl'), 'utf8').split('\n')) {
    if (!line) continue
    const sample = JSON.parse(line)
    if (sample.http && sample.http.finished > 0 && typeof sample.self === 'number') costs.push(sample.self)
  }
  return costs.length > 0 ? median(costs) : NaN
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

// This script and the load it runs stay off the servers' CPU.
execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' })

console.log(`each run: ${PAIR_SHAPE};`)
console.log(`${rounds} rounds of ${burst} s; ${runs} runs a mode, interleaved`)
if (!clinic) console.log('clinic doctor: not measured (give --clinic <path to its bin>; see the top of this file)')

/** @type {Record<string, Awaited<ReturnType<typeof pairRun>>[]>} */
const results = Object.fromEntries(Object.keys(modes).map((m) => [m, []]))
for (let run = 0; run < runs; run++) {
  const order = run % 2 ? Object.entries(modes).reverse() : Object.entries(modes)
  for (const [name, how] of order) results[name].push(await modeRun(name, how))
}

console.log('\nmode             kept per CPU-second (95% interval over runs)   each run')
for (const [name, list] of Object.entries(results)) {
  console.log(`${name.padEnd(16)} ${keptOverRuns(list.map((r) => r.ratio)).padEnd(46)} ${list.map((r) => (r.ratio * 100).toFixed(1)).join(' ')}`)
}
const all = Object.values(results).flat()
console.log(`\nno tool: a median ${Math.round(median(all.map((r) => r.plainPerCpuSecond))).toLocaleString('en-US')} requests per CPU-second; CPU 0 busy ${(median(all.map((r) => r.busy)) * 100).toFixed(0)}% of the time under load`)
if (tickCosts.length) console.log(`dyno doctor's tick on the app's main thread, under load: a median ${(median(tickCosts) * 1000).toFixed(0)} µs (100 a second)`)
console.log(`the agent's own CPU on an idle app (main thread and worker): ${(await idleAgentCpu(5)).toFixed(1)} ms a second`)
