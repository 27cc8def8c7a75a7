#!/usr/bin/env node
/**
 * What dyno async costs the app: req/s of a server that saturates one core,
 * with no tool and under `dyno async` at its default sampling, in paired
 * rounds (the modes side by side in each round, in alternating order), as the
 * ratio of their req/s with its 95% interval. A third mode sets a V8 promise
 * hook once and removes it (bench/lib/promise-hook-once.cjs): what any tracer
 * of promises costs at least, since V8 runs promises on a slower path from
 * then on. Two apps: the hello-world
 * server, and one that awaits in a loop (some sixty async operations a
 * request). With clinic bubbleprof installed under bench/ (npm install
 * --prefix tools/bench-peers --no-save @clinic/bubbleprof), it runs on the same apps
 * under the same load, and what it does is printed.
 *
 * The app is pinned to CPU 0, the load (dyno load, 50 connections) to CPU 1.
 *
 *   node bench/async.js [--rounds 6] [--duration 5] [--sample 10]
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { compareRounds } from '../lib/stats/paired.js'
import { DEFAULT_SAMPLE } from '../lib/commands/async.js'
import { loadCommand as sharedLoadCommand, runPlain } from './lib/tool-runs.js'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    duration: { type: 'string', default: '5' },
    sample: { type: 'string', default: String(DEFAULT_SAMPLE) }
  }
})
const rounds = Number(values.rounds)
const duration = Number(values.duration)
const root = fileURLToPath(new URL('..', import.meta.url))
const dyno = join(root, 'bin/dyno.js')
const bubbleprof = join(root, 'tools/bench-peers/node_modules/@clinic/bubbleprof')
/** How long clinic bubbleprof may take, from its start to its report. */
const BUBBLEPROF_LIMIT_MS = 180_000
const apps = { 'hello world': join(root, 'bench/apps/hello.js'), 'await in a loop': join(root, 'bench/apps/await-loop.js') }

const loadCommand = (/** @type {string} */ out) => sharedLoadCommand(dyno, duration, out)

/**
 * @param {string[]} command
 * @param {string} cwd
 * @returns {Promise<{ code: number | null, stderr: string }>}
 */
function run (command, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } })
    let stderr = ''
    child.stderr.on('data', (d) => { stderr += d })
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, stderr }))
  })
}

/** @param {string} app @param {string} dir @param {string} out */
async function underDyno (app, dir, out) {
  const { code, stderr } = await run(['taskset', '-c', '0', process.execPath, dyno, 'async', '--sample', values.sample ?? '10', '--out', dir,
    '--on-port', loadCommand(out), '--', process.execPath, app], dir)
  if (code !== 0) throw new Error(`dyno async exited with ${code}: ${stderr}`)
  const folder = readdirSync(dir).find((name) => name.endsWith('-async'))
  const counts = readFileSync(join(dir, /** @type {string} */ (folder), 'async.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.type === 'counts').pop()
  return counts
}

/** @param {string} file */
const requestsPerSecond = (file) => JSON.parse(readFileSync(file, 'utf8')).requests.average

console.log(`apps on CPU 0, load (dyno load -c 50) on CPU 1; ${duration} s runs, ${rounds} paired rounds; dyno async at one request in ${values.sample}`)
const hookOnce = { ...process.env, NODE_OPTIONS: `--require ${join(root, 'bench/lib/promise-hook-once.cjs')}` }
for (const [name, app] of Object.entries(apps)) {
  /** @type {number[]} */
  const alone = []
  /** @type {number[]} */
  const hooked = []
  /** @type {number[]} */
  const traced = []
  let tracedRequests = 0
  let requests = 0
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['alone', 'hook', 'dyno'] : ['dyno', 'hook', 'alone']
    for (const mode of order) {
      const dir = mkdtempSync(join(tmpdir(), 'dyno-bench-async-'))
      const out = join(dir, 'load.json')
      if (mode === 'alone') {
        await runPlain(app, loadCommand(out))
        alone[round] = requestsPerSecond(out)
      } else if (mode === 'hook') {
        await runPlain(app, loadCommand(out), hookOnce)
        hooked[round] = requestsPerSecond(out)
      } else {
        const counts = await underDyno(app, dir, out)
        traced[round] = requestsPerSecond(out)
        tracedRequests += counts.traced
        requests += counts.requests
      }
      rmSync(dir, { recursive: true, force: true })
    }
  }
  const kept = compareRounds(alone, traced)
  const floor = compareRounds(alone, hooked)
  const rps = (/** @type {number[]} */ list) => Math.round(list.reduce((a, b) => a + b, 0) / list.length).toLocaleString('en-US')
  const interval = (/** @type {{ ratio: number, low: number, high: number }} */ k) => `${(k.ratio * 100).toFixed(1)}% (95% interval ${(k.low * 100).toFixed(1)}% to ${(k.high * 100).toFixed(1)}%)`
  console.log(`\n${name}: no tool ${rps(alone)} req/s, a promise hook set once ${rps(hooked)} req/s, dyno async ${rps(traced)} req/s`)
  console.log(`  dyno async kept ${interval(kept)}, ${tracedRequests.toLocaleString('en-US')} of ${requests.toLocaleString('en-US')} requests traced`)
  console.log(`  a promise hook set once kept ${interval(floor)}`)
}

if (!existsSync(bubbleprof)) {
  console.log('\nclinic bubbleprof: not installed under tools/bench-peers/ (npm install --prefix tools/bench-peers --no-save @clinic/bubbleprof), not run')
} else {
  for (const [name, app] of Object.entries(apps)) {
    const dir = mkdtempSync(join(tmpdir(), 'dyno-bench-bubbleprof-'))
    const { line, timedOut } = await runFor(['node', join(root, 'bench/lib/bubbleprof.cjs'), app, dir, String(duration)], dir, BUBBLEPROF_LIMIT_MS)
    const r = line ? JSON.parse(line) : null
    const load = r && r.rps ? `${Math.round(r.rps).toLocaleString('en-US')} req/s under load` : 'no load result'
    const trace = r && r.collectedS ? `, ${(r.traceBytes / 1e6).toFixed(0)} MB of trace events collected in ${r.collectedS.toFixed(0)} s` : ''
    const report = r?.report ? `report written ${r.reportS.toFixed(0)} s after the start` : timedOut ? `no report within ${BUBBLEPROF_LIMIT_MS / 1000} s (stopped)` : `no report (${r?.error ?? 'none written'})`
    console.log(`\nclinic bubbleprof, ${name}: ${load}${trace}; ${report}`)
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Runs a command (in a process group of its own) for at most `ms`; returns
 * the last line it printed, and whether it ran out of time.
 * @param {string[]} command @param {string} cwd @param {number} ms
 * @returns {Promise<{ line: string | null, timedOut: boolean }>}
 */
function runFor (command, cwd, ms) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { cwd, stdio: ['ignore', 'pipe', 'ignore'], detached: true })
    let stdout = ''
    child.stdout.on('data', (d) => { stdout += d })
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      try {
        process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL')
      } catch {}
    }, ms)
    child.on('exit', () => {
      clearTimeout(timer)
      resolve({ line: stdout.trim().split('\n').pop() || null, timedOut })
    })
  })
}
