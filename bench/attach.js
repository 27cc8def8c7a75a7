#!/usr/bin/env node
/**
 * What `--pid` costs a running app:
 *
 * 1. The pause when dyno comes in and when it leaves. An idle hello-world
 *    server, with a 1 ms timer preloaded that records every turn of its
 *    event loop longer than 3 ms (bench/lib/loop-gaps.cjs), is joined by
 *    `dyno doctor --pid` and `dyno flame --pid` for 1 s, again and again;
 *    the longest turn while dyno comes in (from its start to its line
 *    saying it closed the inspector) and while it leaves (from the end of the second to its exit),
 *    against the longest in as long a window with no dyno.
 * 2. The overhead while dyno is in: the same server loaded by `dyno doctor
 *    --load`, started by dyno (A) or started alone and joined with --pid (B),
 *    in paired rounds A B, B A, …: the ratio of req/s, with its 95% interval.
 *    The server runs on CPU 0, dyno and its load on CPU 1.
 *
 *   node bench/attach.js [--pauses 10] [--rounds 8] [--seconds 5]
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { compareRounds } from '../lib/stats/paired.js'
import { median } from './lib/measure.js'

const { values } = parseArgs({ options: { pauses: { type: 'string', default: '10' }, rounds: { type: 'string', default: '8' }, seconds: { type: 'string', default: '5' } } })
const root = fileURLToPath(new URL('..', import.meta.url))
const app = join(root, 'bench/apps/hello.js')
const dyno = join(root, 'bin/dyno.js')
const gapsProbe = join(root, 'bench/lib/loop-gaps.cjs')
const work = mkdtempSync(join(tmpdir(), 'dyno-bench-attach-'))

/**
 * The server, started alone on CPU 0; resolves once it listens.
 * @param {NodeJS.ProcessEnv} [env]
 */
async function startServer (env = {}) {
  // The probe only where pauses are measured: its 1 ms timer costs a loaded server.
  const probe = env.GAPS_FILE ? ['-r', gapsProbe] : []
  const child = spawn('taskset', ['-c', '0', process.execPath, ...probe, '--inspect-port=0', app], { env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'ignore'] })
  // A server that dies under dyno is a finding, not noise.
  child.on('exit', (code, signal) => { if (!child.killed) console.error(`the server exited by itself: code ${code}, signal ${signal}`) })
  let out = ''
  const port = await new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d
      const match = /listening on (\d+)/.exec(out)
      if (match) resolve(Number(match[1]))
    })
    child.once('exit', () => reject(new Error('the server exited')))
  })
  return { child, pid: /** @type {number} */ (child.pid), port }
}

/**
 * A dyno run on CPU 1, with the times it started, said it was in, and ended.
 * @param {string[]} args
 */
async function dynoRun (args) {
  const startedAt = Date.now()
  const child = spawn('taskset', ['-c', '1', process.execPath, dyno, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  let stdout = ''
  let inAt = NaN
  child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d })
  child.stderr.setEncoding('utf8').on('data', (d) => {
    stderr += d
    if (Number.isNaN(inAt) && /closed it/.test(stderr)) inAt = Date.now()
  })
  const [code] = await once(child, 'exit')
  if (code !== 0) throw new Error(`dyno ${args.join(' ')} exited with ${code}: ${stderr}`)
  return { startedAt, inAt, endedAt: Date.now(), stdout }
}

/** @param {string} file @param {number} from @param {number} to epoch ms */
function longestTurn (file, from, to) {
  let longest = 0
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue
    const [at, ms] = line.split(' ').map(Number)
    // A turn counts where it overlaps the window.
    if (at >= from && at - ms <= to) longest = Math.max(longest, ms)
  }
  return longest
}

/** @param {number[]} xs */
const spread = (xs) => `median ${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`

async function pauses () {
  const gaps = join(work, 'gaps.txt')
  writeFileSync(gaps, '')
  const server = await startServer({ GAPS_FILE: gaps })
  /** @type {Record<string, { in: number[], out: number[] }>} */
  const found = { doctor: { in: [], out: [] }, flame: { in: [], out: [] } }
  const quiet = /** @type {number[]} */ ([])
  for (let i = 0; i < Number(values.pauses); i++) {
    for (const kind of /** @type {const} */ (['doctor', 'flame'])) {
      const run = await dynoRun([kind, '--out', work, '--pid', String(server.pid), '--duration', '1'])
      found[kind].in.push(longestTurn(gaps, run.startedAt, run.inAt + 100))
      found[kind].out.push(longestTurn(gaps, run.inAt + 1000, run.endedAt))
      // As long a window with no dyno, for comparison.
      const from = Date.now()
      await new Promise((resolve) => setTimeout(resolve, run.endedAt - run.startedAt))
      quiet.push(longestTurn(gaps, from, Date.now()))
    }
  }
  server.child.kill()
  console.log(`longest turn of the event loop of an idle server, ${values.pauses} runs of each (turns of 3 ms and less count as 3 ms):`)
  for (const [kind, f] of Object.entries(found)) {
    console.log(`  dyno ${kind} --pid coming in: ${spread(f.in.map((x) => Math.max(3, x)))}; leaving: ${spread(f.out.map((x) => Math.max(3, x)))}`)
  }
  console.log(`  no dyno, as long a window: ${spread(quiet.map((x) => Math.max(3, x)))}`)
}

/** @param {string} out @returns {number} req/s of the run's load */
function loadRate (out) {
  const folder = join(out, readdirSync(out).filter((f) => f.endsWith('-doctor')).sort().at(-1) ?? '')
  const meta = JSON.parse(readFileSync(join(folder, 'meta.json'), 'utf8'))
  return meta.load.requests.completed / meta.load.duration
}

async function overhead () {
  const load = `-c 50 -d ${values.seconds} http://127.0.0.1:$PORT/`
  const started = async () => {
    const out = mkdtempSync(join(work, 'a-'))
    await dynoRun(['doctor', '--out', out, '--load', load, '--', 'taskset', '-c', '0', process.execPath, app])
    return loadRate(out)
  }
  const joined = async () => {
    const out = mkdtempSync(join(work, 'b-'))
    const server = await startServer()
    try {
      await dynoRun(['doctor', '--out', out, '--pid', String(server.pid), '--load', load])
    } finally {
      server.child.kill()
    }
    return loadRate(out)
  }
  await started()
  await joined()
  const a = /** @type {number[]} */ ([])
  const b = /** @type {number[]} */ ([])
  for (let round = 0; round < Number(values.rounds); round++) {
    if (round % 2 === 0) {
      a.push(await started())
      b.push(await joined())
    } else {
      b.push(await joined())
      a.push(await started())
    }
    console.log(`round ${round + 1}: started ${a[round].toFixed(0)} req/s, joined ${b[round].toFixed(0)} req/s, ratio ${(b[round] / a[round]).toFixed(3)}`)
  }
  const ratio = compareRounds(a, b)
  console.log(`dyno doctor --pid against dyno doctor -- node: req/s ${ratio.ratio.toFixed(3)}x (95% interval ${ratio.low.toFixed(3)}x to ${ratio.high.toFixed(3)}x, ${ratio.rounds} paired rounds)`)
}

try {
  await pauses()
  await overhead()
} finally {
  rmSync(work, { recursive: true, force: true })
}
