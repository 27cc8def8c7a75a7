#!/usr/bin/env node
/**
 * Where the agent's cost goes, finer than req/s can tell on a noisy
 * machine: a server pinned to CPU 0 under `dyno load -c 50` (CPU 1), with
 * the agent and one collector inside it, profiled by Linux perf (`perf
 * record -g`, the app run with --perf-basic-prof so that its JavaScript
 * frames have names). It prints, of the app's CPU samples, the share of each
 * thread (main, the agent's worker, the rest: V8's and libuv's), and of the
 * main thread's the share whose stack passes through the agent's own code
 * or through Node's async_hooks.
 *
 *   node bench/agent-share.js [--collector doctor|async] [--app bench/apps/hello.js] [--seconds 8] [--runs 2]
 *
 * Needs `perf` (linux-tools) and the right to profile one's own processes.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    collector: { type: 'string', default: 'doctor' },
    app: { type: 'string', default: 'bench/apps/hello.js' },
    seconds: { type: 'string', default: '8' },
    runs: { type: 'string', default: '2' }
  }
})
const root = fileURLToPath(new URL('..', import.meta.url))
const dyno = join(root, 'bin/dyno.js')
const agent = join(root, 'lib/agent/agent.cjs')
const app = resolve(values.app)
const seconds = Number(values.seconds)
const AGENT_FRAME = /lib\/agent\//
const HOOKS_FRAME = /async_hooks/

if (spawnSync('perf', ['--version']).status !== 0) {
  console.log('perf is not installed: nothing measured')
  process.exit(0)
}

/**
 * One run: the app under load, profiled for `seconds` in the middle of it.
 * @returns {Promise<{ tid: string, frames: string[] }[]>}
 */
async function profileRun () {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-bench-share-'))
  const env = { ...process.env, NODE_OPTIONS: `--require ${agent}`, DYNO_RUN_DIR: dir, DYNO_COLLECTORS: JSON.stringify({ [values.collector]: {} }) }
  // In the run's own folder: with --perf-basic-prof, V8 also writes its log (isolate-*.log) in the working directory.
  const child = spawn('taskset', ['-c', '0', process.execPath, '--perf-basic-prof', app], { cwd: dir, env, stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    const port = await new Promise((resolve) => child.stdout.on('data', (d) => {
      const m = /listening on (\d+)/.exec(String(d))
      if (m) resolve(m[1])
    }))
    const load = spawn('taskset', ['-c', '1', process.execPath, dyno, 'load', '-c', '50', '-d', String(seconds + 2), `http://127.0.0.1:${port}/`], { stdio: 'ignore' })
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const data = join(dir, 'perf.data')
    execFileSync('perf', ['record', '-F', '999', '-g', '-p', String(child.pid), '-o', data, '--', 'sleep', String(seconds)], { stdio: 'ignore' })
    await new Promise((resolve) => load.once('exit', resolve))
    const script = execFileSync('perf', ['script', '-i', data, '-F', 'tid,ip,sym'], { encoding: 'utf8', maxBuffer: 1 << 30 })
    return parseSamples(script)
  } finally {
    child.kill()
    rmSync(dir, { recursive: true, force: true })
    rmSync(`/tmp/perf-${child.pid}.map`, { force: true })
  }
}

/**
 * `perf script` output: a line with the thread id, then one frame a line
 * (tab-indented), innermost first, then a blank line.
 * @param {string} text
 */
function parseSamples (text) {
  /** @type {{ tid: string, frames: string[] }[]} */
  const samples = []
  /** @type {{ tid: string, frames: string[] } | null} */
  let current = null
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      if (current) samples.push(current)
      current = null
    } else if (!line.startsWith('\t')) {
      current = { tid: line.trim().split(/\s+/)[0], frames: [] }
    } else if (current) {
      current.frames.push(line.trim().replace(/^[0-9a-f]+ /, ''))
    }
  }
  if (current) samples.push(current)
  return samples
}

const pct = (/** @type {number} */ part, /** @type {number} */ whole) => `${((100 * part) / whole).toFixed(2)}%`

console.log(`${values.collector} collector in ${values.app}, ${seconds} s of perf samples under dyno load -c 50, ${values.runs} runs`)
for (let run = 1; run <= Number(values.runs); run++) {
  const samples = await profileRun()
  /** @type {Map<string, typeof samples>} */
  const byThread = new Map()
  for (const s of samples) byThread.set(s.tid, [...(byThread.get(s.tid) ?? []), s])
  const threads = [...byThread.entries()].sort((a, b) => b[1].length - a[1].length)
  const main = threads[0][1]
  // The agent's worker: the other thread that runs the agent's code most.
  const worker = threads.slice(1).map(([, list]) => list).sort((a, b) => countWith(b, AGENT_FRAME) - countWith(a, AGENT_FRAME))[0] ?? []
  const rest = samples.length - main.length - worker.length
  console.log(`run ${run}: main thread ${pct(main.length, samples.length)} of the samples, agent's worker ${pct(worker.length, samples.length)}, other threads ${pct(rest, samples.length)}; ` +
    `of the main thread's, in the agent's code ${pct(countWith(main, AGENT_FRAME), main.length)}, in async_hooks ${pct(countWith(main, HOOKS_FRAME), main.length)}`)
}

/** @param {{ frames: string[] }[]} list @param {RegExp} pattern */
function countWith (list, pattern) {
  return list.filter((s) => s.frames.some((f) => pattern.test(f))).length
}
