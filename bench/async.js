#!/usr/bin/env node
/**
 * What dyno async costs the app: the requests a server answers per second of
 * CPU under `dyno async` at its default sampling, as a share of the same
 * with no tool (bench/lib/pair-runs.js: each run beside a no-tool server on
 * the same CPU, loaded at once; the interval is over runs of fresh
 * processes). A second mode sets a V8 promise hook once and removes it
 * (bench/lib/promise-hook-once.cjs): what any tracer of promises costs at
 * least, since V8 runs promises on a slower path from then on. Two apps: the
 * hello-world server, and one that awaits in a loop (some sixty async
 * operations a request). With clinic bubbleprof installed under bench/ (npm
 * install --prefix tools/bench-peers --no-save @clinic/bubbleprof), it runs
 * on the same apps under a load, and what it does is printed.
 *
 *   node bench/async.js [--runs 6] [--rounds 6] [--burst 2] [--sample 100]
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { DEFAULT_SAMPLE } from '../lib/kinds/async/command.js'
import { median } from './lib/measure.js'
import { PAIR_SHAPE, keptOverRuns, pairOptions, pairRun } from './lib/pair-runs.js'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '6' },
    burst: { type: 'string', default: '2' },
    sample: { type: 'string', default: String(DEFAULT_SAMPLE) }
  }
})
const { runs, rounds, burst } = pairOptions(values)
/** clinic bubbleprof's load, in seconds. */
const BUBBLEPROF_LOAD_S = 5
const root = fileURLToPath(new URL('..', import.meta.url))
const dyno = join(root, 'bin/dyno.js')
const bubbleprof = join(root, 'tools/bench-peers/node_modules/@clinic/bubbleprof')
/** How long clinic bubbleprof may take, from its start to its report. */
const BUBBLEPROF_LIMIT_MS = 180_000
const apps = { 'hello world': join(root, 'bench/apps/hello.js'), 'await in a loop': join(root, 'bench/apps/await-loop.js') }

const promiseHookOnce = join(root, 'bench/lib/promise-hook-once.cjs')

/** @typedef {import('./lib/pair-runs.js').HowToStart} HowToStart */

/**
 * The modes of an app, each run beside the app with no tool.
 * @param {string} app
 * @returns {Record<string, HowToStart>}
 */
const modesOf = (app) => ({
  'dyno async': (dir, onPort) => ({
    command: [process.execPath, dyno, 'async', '--sample', String(values.sample), '--out', dir, '--on-port', onPort, '--', process.execPath, app],
    env: { NO_COLOR: '1' }
  }),
  'promise hook once': () => ({ command: [process.execPath, '-r', promiseHookOnce, app] })
})

/**
 * The requests dyno async saw and traced, from the last counts line of its run folder.
 * @param {string} dir the --out folder of a dyno async run
 */
function tracedCounts (dir) {
  const folder = readdirSync(dir).find((name) => name.endsWith('-async'))
  if (!folder) return { traced: 0, requests: 0 }
  const lines = readFileSync(join(dir, folder, 'async.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  return lines.filter((l) => l.type === 'counts').pop() ?? { traced: 0, requests: 0 }
}

// This script and the load it runs stay off the servers' CPU.
execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' })

console.log(`each run: ${PAIR_SHAPE};`)
console.log(`${rounds} rounds of ${burst} s; ${runs} runs a mode and app, interleaved; dyno async at one request in ${values.sample}`)
for (const [name, app] of Object.entries(apps)) {
  const modes = modesOf(app)
  /** @type {Record<string, Awaited<ReturnType<typeof pairRun>>[]>} */
  const results = Object.fromEntries(Object.keys(modes).map((m) => [m, []]))
  let traced = 0
  let requests = 0
  for (let run = 0; run < runs; run++) {
    const order = run % 2 ? Object.entries(modes).reverse() : Object.entries(modes)
    for (const [mode, tool] of order) {
      const dyno = mode === 'dyno async'
      results[mode].push(await pairRun({
        plain: () => ({ command: [process.execPath, app] }),
        tool,
        rounds,
        burst,
        // dyno async ends as on Ctrl-C and writes its run folder, whose counts are kept.
        end: dyno ? 'SIGINT' : 'SIGKILL',
        afterEnd: dyno ? (dir) => { const counts = tracedCounts(dir); traced += counts.traced; requests += counts.requests } : undefined
      }))
    }
  }
  const plain = median(Object.values(results).flat().map((r) => r.plainPerCpuSecond))
  console.log(`\n${name}: with no tool a median ${Math.round(plain).toLocaleString('en-US')} requests per CPU-second`)
  for (const [mode, list] of Object.entries(results)) {
    console.log(`  ${mode.padEnd(18)} kept ${keptOverRuns(list.map((r) => r.ratio))} (95% interval over runs); runs ${list.map((r) => (r.ratio * 100).toFixed(1)).join(' ')}`)
  }
  console.log(`  dyno async traced ${traced.toLocaleString('en-US')} of ${requests.toLocaleString('en-US')} requests`)
}

if (!existsSync(bubbleprof)) {
  console.log('\nclinic bubbleprof: not installed under tools/bench-peers/ (npm install --prefix tools/bench-peers --no-save @clinic/bubbleprof), not run')
} else {
  for (const [name, app] of Object.entries(apps)) {
    const dir = mkdtempSync(join(tmpdir(), 'dyno-bench-bubbleprof-'))
    const { line, timedOut } = await runFor(['node', join(root, 'bench/lib/bubbleprof.cjs'), app, dir, String(BUBBLEPROF_LOAD_S)], dir, BUBBLEPROF_LIMIT_MS)
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
