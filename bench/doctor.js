#!/usr/bin/env node
/**
 * What `dyno doctor` costs the app: requests a hello-world server answers
 * per second of CPU under `dyno doctor`, under `clinic doctor`, and under
 * the floor (bench/lib/doctor-floor.cjs: what any doctor sampling every 10 ms
 * pays, whatever it does with the figures), each as a share of the same with
 * no tool; and the agent's own CPU time a second on an idle app.
 *
 * A run starts two fresh servers, one with no tool and one under the mode,
 * both pinned to CPU 0, and loads both at once from CPU 1 (this script, 25
 * connections each) in rounds of a few seconds. Each round, a server's
 * figure is its requests over the CPU time of its whole process tree (the
 * tool's processes and threads count); the mode's ratio is the run's
 * geometric mean over its rounds. The two servers share CPU 0 at the
 * scheduler's grain of a few ms, so a slower moment of the host slows both
 * alike: req/s measured run after run moves by ±15% on a shared machine,
 * this ratio by about 2% a round. Each run's processes are fresh, because
 * one process's JIT luck moves its ratio by a percent or two; the figure is
 * the geometric mean over runs, with a 95% t interval over the runs.
 *
 * clinic doctor runs when it is installed where --clinic says (it is not a
 * dependency of dyno): `npm install --prefix /tmp/clinic clinic`, then
 * `node bench/doctor.js --clinic /tmp/clinic/node_modules/.bin/clinic`.
 *
 *   node bench/doctor.js [--runs 6] [--rounds 6] [--burst 2] [--clinic path]
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { load } from '../lib/index.js'
import { oneSampleTTest } from '../lib/stats/paired.js'
import { median } from './lib/measure.js'
import { treeCpuMs } from './lib/process-cpu.js'
import { runCommand } from './lib/tool-runs.js'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '6' },
    burst: { type: 'string', default: '2' },
    clinic: { type: 'string' }
  }
})
const runs = Number(values.runs)
const rounds = Number(values.rounds)
const burst = Number(values.burst)
/** Rounds that warm the servers up, not counted. */
const WARM_UP_ROUNDS = 2
const CONNECTIONS = 25
const root = fileURLToPath(new URL('..', import.meta.url))
const app = join(root, 'bench/apps/hello.js')
const dyno = join(root, 'bin/dyno.js')
const floor = join(root, 'bench/lib/doctor-floor.cjs')
const clinic = values.clinic && existsSync(values.clinic) ? values.clinic : null
/** The tools' --on-port command sleeps this long at most: no server outlives a run by much. */
const lifetime = Math.ceil((WARM_UP_ROUNDS + rounds) * (burst + 1) + 60)

/**
 * @typedef {(dir: string, portFile: string) => { command: string[], env?: NodeJS.ProcessEnv }} HowToStart
 */

/**
 * A server of one mode, on CPU 0, in its own process group (the tool, the
 * app and whatever they start).
 */
class Server {
  /** @param {string} name @param {HowToStart} how */
  constructor (name, how) {
    this.name = name
    this.dir = mkdtempSync(join(tmpdir(), 'dyno-bench-doctor-'))
    this.portFile = join(this.dir, 'port')
    const { command, env } = how(this.dir, this.portFile)
    this.child = spawn('taskset', ['-c', '0', ...command], { cwd: this.dir, env: { ...process.env, PORT: '0', ...env }, detached: true, stdio: ['ignore', 'pipe', 'inherit'] })
    this.pid = /** @type {number} */ (this.child.pid)
    this.exited = new Promise((resolve) => this.child.once('exit', resolve))
    this.stdout = ''
    this.child.stdout.on('data', (d) => { this.stdout += d })
  }

  /** The port: from the app's "listening on" line, or from the file a tool's --on-port command wrote. */
  async port () {
    for (let waited = 0; waited < 30_000; waited += 50) {
      const m = /listening on (\d+)/.exec(this.stdout)
      if (m) return Number(m[1])
      const port = existsSync(this.portFile) ? Number(readFileSync(this.portFile, 'utf8')) : 0
      if (port > 0) return port
      await sleep(50)
    }
    throw new Error(`${this.name}: the server did not listen within 30 s`)
  }

  /**
   * Ends the group: SIGINT, as Ctrl-C would, or SIGKILL; SIGKILL after `graceMs` in any case.
   * @param {NodeJS.Signals} signal @param {number} graceMs
   */
  async end (signal, graceMs) {
    const send = (/** @type {NodeJS.Signals} */ s) => { try { process.kill(-this.pid, s) } catch {} }
    send(signal)
    const timer = setTimeout(() => send('SIGKILL'), graceMs)
    await this.exited
    clearTimeout(timer)
  }
}

/** @type {HowToStart} */
const noTool = () => ({ command: [process.execPath, app] })
/** @type {Record<string, HowToStart>} */
const modes = {
  'dyno doctor': (dir, portFile) => ({
    command: [process.execPath, dyno, 'doctor', '--out', dir, '--on-port', `echo $PORT > ${portFile}; sleep ${lifetime}`, '--', process.execPath, app]
  }),
  floor: () => ({ command: [process.execPath, '-r', floor, app] })
}
if (clinic) {
  modes['clinic doctor'] = (dir, portFile) => ({
    command: [clinic, 'doctor', '--no-open', '--on-port', `echo $PORT > ${portFile}; sleep ${lifetime}`, '--', process.execPath, app],
    env: { NO_INSIGHT: '1' }
  })
}

/**
 * One run of a mode beside a server with no tool.
 * @param {string} name @param {HowToStart} how
 * @returns {Promise<{ ratio: number, plainPerCpuSecond: number, busy: number, tickMs: number }>}
 */
async function pairRun (name, how) {
  const pair = [new Server('no tool', noTool), new Server(name, how)]
  try {
    const ports = await Promise.all(pair.map((s) => s.port()))
    const logRatios = []
    const plain = []
    const busy = []
    for (let round = 0; round < WARM_UP_ROUNDS + rounds; round++) {
      const before = pair.map((s) => treeCpuMs(s.pid))
      const started = performance.now()
      const results = await Promise.all(ports.map((port) => load({ url: `http://127.0.0.1:${port}/`, connections: CONNECTIONS, duration: burst })))
      const cpu = pair.map((s, i) => treeCpuMs(s.pid) - before[i])
      if (round < WARM_UP_ROUNDS) continue
      const perCpuMs = results.map((r, i) => r.requests.completed / cpu[i])
      logRatios.push(Math.log(perCpuMs[1] / perCpuMs[0]))
      plain.push(perCpuMs[0] * 1000)
      busy.push((cpu[0] + cpu[1]) / (performance.now() - started))
    }
    return { ratio: Math.exp(logRatios.reduce((a, b) => a + b, 0) / logRatios.length), plainPerCpuSecond: median(plain), busy: median(busy), tickMs: NaN }
  } finally {
    await pair[0].end('SIGKILL', 1000)
    // dyno doctor ends as on Ctrl-C, and writes its run folder; clinic doctor's analysis is not wanted.
    await pair[1].end(name === 'dyno doctor' ? 'SIGINT' : 'SIGKILL', 20_000)
    const tick = name === 'dyno doctor' ? tickMs(pair[1].dir) : NaN
    for (const s of pair) rmSync(s.dir, { recursive: true, force: true })
    if (!Number.isNaN(tick)) tickCosts.push(tick)
  }
}

/** Median ms a collector's tick took on the main thread while requests were answered, one per dyno doctor run. */
const tickCosts = /** @type {number[]} */ ([])

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

console.log(`each run: a server with no tool and one under the mode, both on CPU 0, loaded at once from CPU 1 (${CONNECTIONS} connections each);`)
console.log(`${rounds} rounds of ${burst} s after ${WARM_UP_ROUNDS} to warm up; ${runs} runs a mode, interleaved`)
if (!clinic) console.log('clinic doctor: not measured (give --clinic <path to its bin>; see the top of this file)')

/** @type {Record<string, Awaited<ReturnType<typeof pairRun>>[]>} */
const results = Object.fromEntries(Object.keys(modes).map((m) => [m, []]))
for (let run = 0; run < runs; run++) {
  const order = run % 2 ? Object.entries(modes).reverse() : Object.entries(modes)
  for (const [name, how] of order) results[name].push(await pairRun(name, how))
}

console.log('\nmode             kept per CPU-second (95% interval over runs)   each run')
for (const [name, list] of Object.entries(results)) {
  const test = oneSampleTTest(list.map((r) => Math.log(r.ratio)))
  const kept = `${(Math.exp(test.mean) * 100).toFixed(1)}% (${(Math.exp(test.low) * 100).toFixed(1)}–${(Math.exp(test.high) * 100).toFixed(1)}%)`
  console.log(`${name.padEnd(16)} ${kept.padEnd(46)} ${list.map((r) => (r.ratio * 100).toFixed(1)).join(' ')}`)
}
const all = Object.values(results).flat()
console.log(`\nno tool: a median ${Math.round(median(all.map((r) => r.plainPerCpuSecond))).toLocaleString('en-US')} requests per CPU-second; CPU 0 busy ${(median(all.map((r) => r.busy)) * 100).toFixed(0)}% of the time under load`)
if (tickCosts.length) console.log(`dyno doctor's tick on the app's main thread, under load: a median ${(median(tickCosts) * 1000).toFixed(0)} µs (100 a second)`)
console.log(`the agent's own CPU on an idle app (main thread and worker): ${(await idleAgentCpu(5)).toFixed(1)} ms a second`)
