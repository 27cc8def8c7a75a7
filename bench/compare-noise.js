#!/usr/bin/env node
/**
 * How much a round of dyno compare --load spreads, by how the two versions
 * are loaded, and so how long a run takes to reach ±2.5%. Two copies of one
 * server (about a millisecond of CPU per request) are started afresh each
 * round, warmed up, and loaded:
 *
 *   turns     one after the other, a whole load each (the order alternating)
 *   slices    in turns of a tenth of a second, before after, after before, …
 *   together  at the same time, each by connections of its own (dyno's way)
 *
 * each with the apps pinned to one CPU and the load generator to another
 * (`pinned`), or left to the scheduler. The designs take their rounds in
 * turn, so that whatever the machine does falls on all of them alike. For
 * each: the standard deviation of a round's log ratio of requests per
 * second and of the apps' CPU time per request, the seconds a round takes,
 * and the time a confidence sequence (lib/stats/sequential.js) needs to
 * reach ±2.5% at that spread.
 *
 *   node bench/compare-noise.js [--rounds 12] [--seconds 1] [--busy] [--only together-pinned,turns]
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { load } from '../lib/load/run.js'
import { processesCpuMs } from '../lib/system/process-cpu.js'
import { allowedCpus, cpusOf, pinProcesses } from '../lib/system/cpu-affinity.js'
import { sequentialCritical } from '../lib/stats/sequential.js'
import { summarize } from '../lib/stats/welch.js'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '12' },
    seconds: { type: 'string', default: '1' },
    busy: { type: 'boolean', default: false },
    only: { type: 'string' }
  }
})
const rounds = Number(values.rounds)
const seconds = Number(values.seconds)
const DESIGNS = ['turns', 'turns-pinned', 'slices', 'slices-pinned', 'together', 'together-pinned']
  .filter((d) => !values.only || values.only.split(',').includes(d))

const dir = mkdtempSync(join(tmpdir(), 'dyno-noise-'))
const server = join(dir, 'server.cjs')
writeFileSync(server, `const xs = Array.from({ length: 25000 }, (_, i) => i * 0.5)
const s = require('node:http').createServer((req, res) => {
  let sum = 0
  for (let r = 0; r < 40; r++) for (let i = 0; i < xs.length; i++) sum += xs[i] * r
  res.end(String(sum))
}).listen(0, '127.0.0.1', () => console.log(s.address().port))
`)
const cpus = cpusOf(allowedCpus() ?? '0')
const all = cpus.join(',')
const busy = values.busy ? spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }) : null
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => {
    busy?.kill()
    process.exit(130)
  })
}

/** @param {boolean} pinned */
async function startApp (pinned) {
  const child = spawn(process.execPath, [server], { stdio: ['ignore', 'pipe', 'inherit'] })
  if (pinned) pinProcesses([(child.pid)], String(cpus.at(-1)))
  const [data] = await once(/** @type {import('node:stream').Readable} */ (child.stdout), 'data')
  return { child, pid: /** @type {number} */ (child.pid), port: Number(String(data).trim()) }
}

/** @typedef {Awaited<ReturnType<typeof startApp>>} App */
/** @param {App} app @param {number} duration */
async function loadOnce (app, duration) {
  const cpuBefore = processesCpuMs([app.pid]) ?? 0
  const result = await load({ url: `http://127.0.0.1:${app.port}/`, connections: 4, duration })
  return { requests: result.requests.completed, duration: result.duration, cpuMs: (processesCpuMs([app.pid]) ?? 0) - cpuBefore }
}

/**
 * One round of a design: the log ratios (b against a) of requests per second and of CPU time per request.
 * @param {string} design @param {number} index
 */
async function round (design, index) {
  const pinned = design.endsWith('-pinned')
  if (pinned) pinProcesses([process.pid], cpus.length > 1 ? String(cpus[0]) : all)
  const [a, b] = [await startApp(pinned), await startApp(pinned)]
  const order = index % 2 ? [b, a] : [a, b]
  const sums = new Map([[a, { requests: 0, duration: 0, cpuMs: 0 }], [b, { requests: 0, duration: 0, cpuMs: 0 }]])
  /** @param {App} app @param {{ requests: number, duration: number, cpuMs: number }} part */
  const add = (app, part) => { const s = /** @type {any} */ (sums.get(app)); for (const k of ['requests', 'duration', 'cpuMs']) s[k] += /** @type {any} */ (part)[k] }
  try {
    if (design.startsWith('together')) {
      await Promise.all(order.map((app) => loadOnce(app, 0.5)))
      const parts = await Promise.all(order.map((app) => loadOnce(app, seconds)))
      order.forEach((app, i) => add(app, parts[i]))
    } else {
      for (const app of order) await loadOnce(app, 0.5)
      if (design.startsWith('turns')) {
        for (const app of order) add(app, await loadOnce(app, seconds))
      } else {
        for (let slice = 0; slice < seconds * 10; slice++) {
          for (const app of slice % 2 ? [...order].reverse() : order) add(app, await loadOnce(app, 0.1))
        }
      }
    }
  } finally {
    a.child.kill()
    b.child.kill()
    if (pinned) pinProcesses([process.pid], all)
  }
  const [sa, sb] = [(sums.get(a)), /** @type {any} */ (sums.get(b))]
  return {
    rps: Math.log((sb.requests / sb.duration) / (sa.requests / sa.duration)),
    cpu: Math.log((sb.cpuMs / sb.requests) / (sa.cpuMs / sa.requests))
  }
}

/**
 * The seconds a confidence sequence takes to reach ±2.5% when rounds spread by `sd` and last `perRound`.
 * @param {number} sd @param {number} perRound
 */
function timeToPrecision (sd, perRound) {
  for (let n = 6; n < 100000; n++) if (sequentialCritical(n) * sd / Math.sqrt(n) <= Math.log1p(0.025)) return n * perRound
  return Infinity
}

/** @type {Record<string, { rps: number[], cpu: number[], ms: number[] }>} */
const measured = Object.fromEntries(DESIGNS.map((d) => [d, { rps: [], cpu: [], ms: [] }]))
try {
  for (let i = 0; i < rounds; i++) {
    // Each repetition takes the designs in another order: none always goes first.
    const designs = i % 2 ? [...DESIGNS].reverse() : DESIGNS
    for (const design of designs) {
      const started = Date.now()
      const r = await round(design, i)
      measured[design].rps.push(r.rps)
      measured[design].cpu.push(r.cpu)
      measured[design].ms.push(Date.now() - started)
    }
    process.stderr.write(`round ${i + 1} of ${rounds}\n`)
  }
} finally {
  busy?.kill()
  rmSync(dir, { recursive: true, force: true })
}

console.log(`${rounds} rounds of ${seconds} s per design${values.busy ? ', another process keeping a CPU busy' : ''}, ${cpus.length} CPUs`)
console.log('design            sd(req/s)  sd(CPU/req)  s/round  to ±2.5% (req/s)  to ±2.5% (CPU/req)')
for (const design of DESIGNS) {
  const m = measured[design]
  const sdRps = Math.sqrt(summarize(m.rps).variance)
  const sdCpu = Math.sqrt(summarize(m.cpu).variance)
  const perRound = m.ms.reduce((s, x) => s + x, 0) / m.ms.length / 1000
  const fmt = (/** @type {number} */ t) => (Number.isFinite(t) ? `${Math.round(t)} s` : '—')
  console.log(`${design.padEnd(16)}  ${sdRps.toFixed(3).padStart(9)}  ${sdCpu.toFixed(3).padStart(11)}  ${perRound.toFixed(1).padStart(7)}  ${fmt(timeToPrecision(sdRps, perRound)).padStart(16)}  ${fmt(timeToPrecision(sdCpu, perRound)).padStart(18)}`)
}
