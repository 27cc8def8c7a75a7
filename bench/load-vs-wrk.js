#!/usr/bin/env node
/**
 * dyno load against wrk, in paired rounds: the same nginx (one worker,
 * pinned to CPU 0), each generator pinned to CPU 1, one short run of each
 * per round, in alternating order (dyno then wrk, wrk then dyno, ...). Each
 * round gives the ratios dyno/wrk of req/s and of CPU time per request;
 * what the round shares (a noisy neighbour, the machine's state) cancels in
 * them. Prints the geometric means of the ratios over the rounds with 95%
 * t-intervals (lib/stats/paired.js).
 *
 *   node bench/load-vs-wrk.js [--rounds 10] [--duration 3] [--connections 100] [--dyno path/to/bin/dyno.js] [--against wrk|path/to/bin/dyno.js]
 *
 * `--dyno` runs another checkout's dyno, `--node` another Node binary;
 * `--against` another checkout's dyno instead of wrk, to measure a change
 * to dyno the same way.
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { startNginx } from './lib/nginx.js'
import { measure } from './lib/measure.js'
import { compareRounds } from '../lib/stats/paired.js'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    duration: { type: 'string', default: '3' },
    connections: { type: 'string', default: '100' },
    dyno: { type: 'string', default: fileURLToPath(new URL('../bin/dyno.js', import.meta.url)) },
    against: { type: 'string', default: 'wrk' },
    node: { type: 'string', default: process.execPath }
  }
})
const rounds = Number(values.rounds)
const duration = Number(values.duration)
const connections = Number(values.connections)

if (values.against === 'wrk') {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' })
  } catch (err) {
    // wrk prints its version and exits 1; only a missing binary throws ENOENT.
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') {
      console.error('wrk is not installed (apt-get install wrk)')
      process.exit(1)
    }
  }
}

/**
 * @typedef {object} Generator
 * @property {string} name
 * @property {(url: string) => string[]} command
 * @property {(out: string) => { requests: number, seconds: number }} read completed requests and the run's own measured duration
 */

/**
 * @param {string} name @param {string} bin
 * @returns {Generator}
 */
const dynoAt = (name, bin) => ({
  name,
  command: (url) => [values.node, bin, 'load', '-c', String(connections), '-d', String(duration), '--json', url],
  read: (out) => {
    const result = JSON.parse(out)
    return { requests: result.requests.completed, seconds: result.duration }
  }
})
const dyno = dynoAt('dyno', values.dyno)
/** @type {Generator} */
const peer = values.against !== 'wrk'
  ? dynoAt('base', values.against)
  : {
      name: 'wrk',
      command: (url) => ['wrk', '-t', '1', '-c', String(connections), '-d', `${duration}s`, url],
      read: (out) => {
        const m = /(\d+) requests in ([\d.]+)(m?s)/.exec(out)
        if (!m) throw new Error(`cannot read wrk's output:\n${out}`)
        return { requests: Number(m[1]), seconds: Number(m[2]) / (m[3] === 'ms' ? 1000 : 1) }
      }
    }

/** @param {Generator} generator @param {string} url */
async function run (generator, url) {
  const { stdout, cpuSeconds } = await measure(generator.command(url), { cpu: 1 })
  const { requests, seconds } = generator.read(stdout)
  return { rps: requests / seconds, us: cpuSeconds * 1e6 / requests }
}

const nginx = await startNginx({ cpu: 0 })
const vs = `dyno/${peer.name}`
console.log(`${vs}: nginx 1 worker on CPU 0, generators on CPU 1; -c ${connections}, ${duration} s runs, ${rounds} paired rounds, order alternating`)
/** @type {{ rps: number[], us: number[] }[]} */
const [ours, theirs] = [{ rps: [], us: [] }, { rps: [], us: [] }]
/** @param {number} x */
const rate = (x) => Math.round(x).toLocaleString('en-US').padStart(7)
try {
  // One unmeasured run each warms nginx, the page cache and the CPU's clocks.
  await run(dyno, nginx.url)
  await run(peer, nginx.url)
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [dyno, peer] : [peer, dyno]
    for (const generator of order) {
      const r = await run(generator, nginx.url)
      const into = generator === dyno ? ours : theirs
      into.rps.push(r.rps)
      into.us.push(r.us)
    }
    const i = round
    console.log(`round ${String(round + 1).padStart(2)}: dyno ${rate(ours.rps[i])} req/s ${ours.us[i].toFixed(2).padStart(5)} µs/req | ${peer.name} ${rate(theirs.rps[i])} req/s ${theirs.us[i].toFixed(2).padStart(5)} µs/req | ratios req/s ${(ours.rps[i] / theirs.rps[i]).toFixed(3)} CPU/req ${(ours.us[i] / theirs.us[i]).toFixed(3)}`)
  }
} finally {
  await nginx.stop()
}

const rps = compareRounds(theirs.rps, ours.rps)
const us = compareRounds(theirs.us, ours.us)
/** @param {{ ratio: number, low: number, high: number }} c */
const show = (c) => `${c.ratio.toFixed(3)}x  [95% CI ${c.low.toFixed(3)}–${c.high.toFixed(3)}]`
console.log(`\n${vs} req/s:           ${show(rps)}`)
console.log(`${vs} CPU per request: ${show(us)}`)
