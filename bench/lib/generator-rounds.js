import { compareRounds } from '../../lib/stats/paired.js'
import { measure, median } from './measure.js'

/**
 * Two load generators on one target, in paired rounds: each round runs one
 * of each, pinned to the same CPU, in alternating order (A B, B A, …), so
 * that what the round shares (a noisy neighbour, the machine's state)
 * cancels in its ratios. The result is the geometric mean of B over A, per
 * round, of requests per second and of CPU time per request, with 95%
 * t-intervals.
 *
 * `together` runs the two of a round at the same time instead, on the one
 * CPU, which the scheduler shares between them a few milliseconds at a
 * time: a shared machine's drift (its clock, its neighbours) then reaches
 * both alike, and the ratio of their CPU time per request is several times
 * tighter than from runs one after the other. Each has about half a CPU, so
 * a generator's start weighs twice what it does alone.
 */

/**
 * @typedef {object} Generator
 * @property {string} name
 * @property {string[]} command
 * @property {(stdout: string) => { requests: number, seconds: number }} read the requests it completed and the time it ran
 */

/**
 * @param {Generator} generator @param {number} cpu
 * @returns {Promise<{ rps: number, us: number }>}
 */
async function runOnce (generator, cpu) {
  const { stdout, cpuSeconds } = await measure(generator.command, { cpu })
  const { requests, seconds } = generator.read(stdout)
  return { rps: requests / seconds, us: cpuSeconds * 1e6 / requests }
}

/**
 * @param {Generator} a @param {Generator} b
 * @param {{ rounds: number, cpu: number, together?: boolean, log?: (line: string) => void }} options
 */
export async function generatorRounds (a, b, { rounds, cpu, together = false, log = console.log }) {
  // One unmeasured run of each warms the target, the page cache and the CPU's clocks.
  await runOnce(a, cpu)
  await runOnce(b, cpu)
  const runs = { a: { rps: /** @type {number[]} */ ([]), us: /** @type {number[]} */ ([]) }, b: { rps: /** @type {number[]} */ ([]), us: /** @type {number[]} */ ([]) } }
  const generators = { a, b }
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? /** @type {const} */ (['a', 'b']) : /** @type {const} */ (['b', 'a'])
    const results = together
      ? await Promise.all(order.map((side) => runOnce(generators[side], cpu)))
      : [await runOnce(generators[order[0]], cpu), await runOnce(generators[order[1]], cpu)]
    order.forEach((side, i) => {
      runs[side].rps.push(results[i].rps)
      runs[side].us.push(results[i].us)
    })
    log(`round ${String(round + 1).padStart(2)}: ${line(a.name, runs.a, round)} | ${line(b.name, runs.b, round)} | ${b.name}/${a.name} req/s ${(runs.b.rps[round] / runs.a.rps[round]).toFixed(3)}, CPU/req ${(runs.b.us[round] / runs.a.us[round]).toFixed(3)}`)
  }
  return {
    medians: { a: { rps: median(runs.a.rps), us: median(runs.a.us) }, b: { rps: median(runs.b.rps), us: median(runs.b.us) } },
    rps: compareRounds(runs.a.rps, runs.b.rps),
    us: compareRounds(runs.a.us, runs.b.us)
  }
}

/** @param {string} name @param {{ rps: number[], us: number[] }} run @param {number} i */
function line (name, run, i) {
  return `${name} ${Math.round(run.rps[i]).toLocaleString('en-US').padStart(7)} req/s ${run.us[i].toFixed(2).padStart(6)} µs/req`
}

/** `1.023x [95% CI 1.004–1.043]` @param {{ ratio: number, low: number, high: number }} c */
export function showRatio (c) {
  return `${c.ratio.toFixed(3)}x  [95% CI ${c.low.toFixed(3)}–${c.high.toFixed(3)}]`
}
