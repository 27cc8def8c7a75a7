#!/usr/bin/env node
/**
 * dyno load --http2 against h2load (nghttp2), in paired rounds: nginx with
 * one worker speaking HTTP/2 with prior knowledge (h2c), pinned to CPU 0;
 * each generator pinned to CPU 1 (bench/lib/generator-rounds.js). Prints
 * dyno/h2load for requests per second and CPU time per request, with 95%
 * intervals, at each shape of load.
 *
 *   node bench/load-http2.js [--rounds 8] [--duration 3]
 *
 * h2load comes from Debian's nghttp2-client package; nginx from nginx-light.
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { generatorRounds, showRatio } from './lib/generator-rounds.js'
import { startNginx } from './lib/nginx.js'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    duration: { type: 'string', default: '3' },
    node: { type: 'string', default: process.execPath }
  }
})
const rounds = Number(values.rounds)
const duration = Number(values.duration)
const dyno = fileURLToPath(new URL('../bin/dyno.js', import.meta.url))

try {
  execFileSync('h2load', ['--version'], { stdio: 'ignore' })
} catch {
  console.error('h2load is not installed (apt-get install nghttp2-client)')
  process.exit(1)
}

/** The shapes of load: connections, and concurrent streams on each. */
const SHAPES = [{ connections: 100, streams: 1 }, { connections: 10, streams: 10 }]

const nginx = await startNginx({ cpu: 0, http2: true })
console.log(`dyno load --http2 / h2load: nginx (h2c, 1 worker) on CPU 0, generators on CPU 1; ${duration} s runs, ${rounds} paired rounds, order alternating`)
try {
  for (const { connections, streams } of SHAPES) {
    console.log(`\n-c ${connections}, ${streams} stream${streams === 1 ? '' : 's'} each`)
    const result = await generatorRounds({
      name: 'h2load',
      command: ['h2load', '-c', String(connections), '-m', String(streams), '-D', String(duration), nginx.url],
      read: (out) => {
        const m = /finished in ([\d.]+)(m?s), ([\d.]+) req\/s/.exec(out)
        if (!m) throw new Error(`cannot read h2load's output:\n${out}`)
        const seconds = Number(m[1]) / (m[2] === 'ms' ? 1000 : 1)
        return { requests: Number(/(\d+) succeeded/.exec(out)?.[1] ?? NaN), seconds }
      }
    }, {
      name: 'dyno',
      command: [values.node, dyno, 'load', '--http2', '-c', String(connections), '--streams', String(streams), '-d', String(duration), '--json', nginx.url],
      read: (out) => {
        const r = JSON.parse(out)
        return { requests: r.requests.completed, seconds: r.duration }
      }
    }, { rounds, cpu: 1 })
    const { a, b } = result.medians
    console.log(`medians: h2load ${Math.round(a.rps).toLocaleString('en-US')} req/s, ${a.us.toFixed(2)} µs/req; dyno ${Math.round(b.rps).toLocaleString('en-US')} req/s, ${b.us.toFixed(2)} µs/req`)
    console.log(`dyno/h2load req/s:           ${showRatio(result.rps)}`)
    console.log(`dyno/h2load CPU per request: ${showRatio(result.us)}`)
  }
} finally {
  await nginx.stop()
}
