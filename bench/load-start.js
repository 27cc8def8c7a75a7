#!/usr/bin/env node
/**
 * What a run of dyno load costs apart from its requests, against wrk: each
 * generator's fixed CPU time (its start, its compiler, its end) and its CPU
 * time per request once it runs, told apart by runs of two lengths. The
 * same nginx as bench/load-vs-wrk.js (one worker, pinned to CPU 0), each
 * generator alone on CPU 1, 100 connections.
 *
 * Each round runs both generators for `--short` and for `--long` seconds, in
 * alternating order. A generator's two runs of a round give its cost per
 * request (the difference of their CPU times over the difference of their
 * requests) and its fixed cost (what the short run spent beyond its
 * requests at that rate). Prints both for each generator, with 95%
 * intervals over the rounds, and dyno/wrk for the cost per request.
 *
 *   node bench/load-start.js [--rounds 6] [--short 1] [--long 9] [--node path/to/node] [--keep-env]
 *
 * Like bench/load-vs-wrk.js, the generators run without NODE_EXTRA_CA_CERTS
 * unless `--keep-env` is given (Node 20 reads the certificates it names as
 * it starts).
 */
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { oneSampleTTest, compareRounds } from '../lib/stats/paired.js'
import { showRatio } from './lib/generator-rounds.js'
import { measure } from './lib/measure.js'
import { startNginx } from './lib/nginx.js'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    short: { type: 'string', default: '1' },
    long: { type: 'string', default: '9' },
    node: { type: 'string', default: process.execPath },
    'keep-env': { type: 'boolean', default: false }
  }
})
const rounds = Number(values.rounds)
const durations = [Number(values.short), Number(values.long)]
const dyno = fileURLToPath(new URL('../bin/dyno.js', import.meta.url))
if (!values['keep-env']) delete process.env.NODE_EXTRA_CA_CERTS

/** @typedef {{ name: string, command: (url: string, seconds: number) => string[], requests: (stdout: string) => number }} Generator */

/** @type {Generator[]} */
const generators = [
  {
    name: 'wrk',
    command: (url, seconds) => ['wrk', '-t', '1', '-c', '100', '-d', `${seconds}s`, url],
    requests: (out) => Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN)
  },
  {
    name: 'dyno',
    command: (url, seconds) => [values.node, dyno, 'load', '-c', '100', '-d', String(seconds), '--json', url],
    requests: (out) => JSON.parse(out).requests.completed
  }
]

/** @type {Record<string, { fixed: number[], perRequest: number[] }>} */
const costs = { wrk: { fixed: [], perRequest: [] }, dyno: { fixed: [], perRequest: [] } }

const nginx = await startNginx({ cpu: 0 })
try {
  console.log(`nginx 1 worker on CPU 0, each generator alone on CPU 1; -c 100, runs of ${durations.join(' s and ')} s, ${rounds} rounds`)
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? generators : [...generators].reverse()
    /** @type {Record<string, { cpu: number, requests: number }[]>} */
    const runs = { wrk: [], dyno: [] }
    for (const seconds of durations) {
      for (const generator of order) {
        const { stdout, cpuSeconds } = await measure(generator.command(nginx.url, seconds), { cpu: 1 })
        runs[generator.name].push({ cpu: cpuSeconds, requests: generator.requests(stdout) })
      }
    }
    const parts = []
    for (const { name } of generators) {
      const [short, long] = runs[name]
      const perRequest = (long.cpu - short.cpu) / (long.requests - short.requests)
      const fixed = short.cpu - perRequest * short.requests
      costs[name].perRequest.push(perRequest)
      costs[name].fixed.push(fixed)
      parts.push(`${name} ${(fixed * 1000).toFixed(0).padStart(4)} ms + ${(perRequest * 1e6).toFixed(3)} µs/req`)
    }
    console.log(`round ${String(round + 1).padStart(2)}: ${parts.join(' | ')}`)
  }
} finally {
  await nginx.stop()
}

console.log('')
for (const { name } of generators) {
  const fixed = oneSampleTTest(costs[name].fixed)
  const perRequest = oneSampleTTest(costs[name].perRequest)
  console.log(`${name.padEnd(4)}: fixed ${ms(fixed.mean)} ms [95% CI ${ms(fixed.low)}–${ms(fixed.high)}], per request ${us(perRequest.mean)} µs [95% CI ${us(perRequest.low)}–${us(perRequest.high)}]`)
}
console.log(`dyno/wrk CPU per request, start left out: ${showRatio(compareRounds(costs.wrk.perRequest, costs.dyno.perRequest))}`)

/** @param {number} s */
function ms (s) {
  return (s * 1000).toFixed(0)
}

/** @param {number} s */
function us (s) {
  return (s * 1e6).toFixed(3)
}
