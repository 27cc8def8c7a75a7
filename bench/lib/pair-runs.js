import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { load } from '../../lib/index.js'
import { oneSampleTTest } from '../../lib/stats/paired.js'
import { median } from './measure.js'
import { treeCpuMs } from './process-tree-cpu.js'

/**
 * What a tool costs a server, precisely enough to tell 1% on a shared
 * machine: a run starts two fresh servers, one with no tool and one under
 * the tool, both pinned to CPU 0, and loads both at once from this process
 * (which should run on CPU 1) in rounds of a few seconds. Each round, a
 * server's figure is its requests over the CPU time of its whole process tree
 * (the tool's processes and threads count); the run's ratio is the geometric
 * mean over its rounds of the tool's figure over the no-tool server's. The two
 * share CPU 0 at the scheduler's grain of a few ms, so a slower moment of the
 * host slows both alike. Runs start fresh processes, because one process's
 * JIT luck moves its ratio by a percent or two: keptOverRuns() gives the
 * interval over runs.
 */

/**
 * How to start a server, in `dir`: the command and any environment it adds.
 * An app prints "listening on <port>"; a tool is given `onPort`, the command
 * for its --on-port, which tells the bench the port and waits out the run.
 * @typedef {(dir: string, onPort: string) => { command: string[], env?: NodeJS.ProcessEnv }} HowToStart
 */

/** Rounds that warm the servers up, not counted. */
const WARM_UP_ROUNDS = 2
const CONNECTIONS = 25

/** A server in its own process group (the tool, the app, whatever they start), on CPU 0. */
class Server {
  /** @param {string} name @param {HowToStart} how @param {number} seconds how long the run may take */
  constructor (name, how, seconds) {
    this.name = name
    this.dir = mkdtempSync(join(tmpdir(), 'dyno-bench-pair-'))
    this.portFile = join(this.dir, 'port')
    const { command, env } = how(this.dir, `echo $PORT > ${this.portFile}; sleep ${Math.ceil(seconds)}`)
    this.child = spawn('taskset', ['-c', '0', ...command], { cwd: this.dir, env: { ...process.env, PORT: '0', ...env }, detached: true, stdio: ['ignore', 'pipe', 'inherit'] })
    this.pid = /** @type {number} */ (this.child.pid)
    this.exited = new Promise((resolve) => this.child.once('exit', resolve))
    this.stdout = ''
    this.child.stdout.on('data', (d) => { this.stdout += d })
  }

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
   * Ends the group with `signal`, and with SIGKILL after `graceMs` in any case.
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

/**
 * One run: the tool's server beside one with no tool.
 * @param {{ plain: HowToStart, tool: HowToStart, rounds: number, burst: number,
 *   end?: NodeJS.Signals, afterEnd?: (dir: string) => void }} options
 *   end: how the tool's server is ended (SIGKILL by default; SIGINT lets a tool write its run folder,
 *   which afterEnd can read from `dir` before it is removed)
 * @returns {Promise<{ ratio: number, plainPerCpuSecond: number, busy: number }>}
 *   busy: the share of the time CPU 0 was busy, the servers being saturated
 */
export async function pairRun ({ plain, tool, rounds, burst, end = 'SIGKILL', afterEnd }) {
  // Room for start-up and the tool's last writes besides the rounds: no server outlives a run by much.
  const seconds = (WARM_UP_ROUNDS + rounds) * (burst + 1) + 60
  const pair = [new Server('no tool', plain, seconds), new Server('tool', tool, seconds)]
  try {
    const ports = await Promise.all(pair.map((s) => s.port()))
    const logRatios = []
    const plainRates = []
    const busy = []
    for (let round = 0; round < WARM_UP_ROUNDS + rounds; round++) {
      const before = pair.map((s) => treeCpuMs(s.pid))
      const started = performance.now()
      const results = await Promise.all(ports.map((port) => load({ url: `http://127.0.0.1:${port}/`, connections: CONNECTIONS, duration: burst })))
      const cpu = pair.map((s, i) => treeCpuMs(s.pid) - before[i])
      if (round < WARM_UP_ROUNDS) continue
      const perCpuMs = results.map((r, i) => r.requests.completed / cpu[i])
      logRatios.push(Math.log(perCpuMs[1] / perCpuMs[0]))
      plainRates.push(perCpuMs[0] * 1000)
      busy.push((cpu[0] + cpu[1]) / (performance.now() - started))
    }
    return { ratio: Math.exp(logRatios.reduce((a, b) => a + b, 0) / logRatios.length), plainPerCpuSecond: median(plainRates), busy: median(busy) }
  } finally {
    await pair[0].end('SIGKILL', 1000)
    await pair[1].end(end, 20_000)
    try {
      afterEnd?.(pair[1].dir)
    } finally {
      for (const s of pair) rmSync(s.dir, { recursive: true, force: true })
    }
  }
}

/**
 * --runs, --rounds and --burst, as numbers; exits with one line when one is not a positive number.
 * @param {{ runs?: string, rounds?: string, burst?: string }} values
 */
export function pairOptions (values) {
  const options = { runs: Number(values.runs), rounds: Number(values.rounds), burst: Number(values.burst) }
  for (const [name, value] of Object.entries(options)) {
    const whole = name !== 'burst'
    if (!(value > 0) || (whole && !Number.isInteger(value))) {
      console.error(`--${name} must be a ${whole ? 'whole number' : 'number of seconds'} above 0, not ${JSON.stringify(values[/** @type {keyof typeof values} */ (name)])}`)
      process.exit(2)
    }
  }
  return options
}

/**
 * The geometric mean of the runs' ratios, with its 95% t interval over the runs, as text.
 * @param {number[]} ratios
 */
export function keptOverRuns (ratios) {
  const test = oneSampleTTest(ratios.map(Math.log))
  const pct = (/** @type {number} */ x) => `${(Math.exp(x) * 100).toFixed(1)}%`
  return ratios.length > 1 ? `${pct(test.mean)} (${pct(test.low)}–${pct(test.high)})` : pct(test.mean)
}

export const PAIR_SHAPE = `a server with no tool and one under the tool, both on CPU 0, loaded at once from CPU 1 (${CONNECTIONS} connections each), after ${WARM_UP_ROUNDS} rounds to warm up`
