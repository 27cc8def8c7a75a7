#!/usr/bin/env node
/**
 * dyno load against autocannon and wrk, in one run, on the same target.
 *
 * The target is nginx with one worker answering "hello world" (a Node
 * server would itself be the bottleneck and could not tell generators
 * apart), pinned to CPU 0; every generator is pinned to CPU 1. Runs are
 * interleaved (dyno, autocannon, wrk, dyno, ...) and repeated, so the
 * machine's drift hits every generator alike. For each generator it prints
 * the median req/s and the CPU time the OS charged it per request.
 *
 *   node bench/load.js [--rounds 5] [--duration 5] [--connections 100]
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { startNginx } from './lib/nginx.js'
import { peerTool } from './lib/peers.js'
import { measure, median } from './lib/measure.js'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '100' }
  }
})
const rounds = Number(values.rounds)
const duration = Number(values.duration)
const connections = Number(values.connections)
const root = fileURLToPath(new URL('..', import.meta.url))
const autocannon = peerTool('autocannon/autocannon.js')

const hasWrk = (() => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' })
    return true
  } catch (err) {
    // wrk prints its version and exits 1; only a missing binary throws ENOENT.
    return /** @type {NodeJS.ErrnoException} */ (err).code !== 'ENOENT'
  }
})()

// wrk pipelines through a Lua script that sends `depth` requests at once.
const luaDir = mkdtempSync(join(tmpdir(), 'dyno-bench-wrk-'))
/** @param {number} depth */
function wrkPipelineScript (depth) {
  const file = join(luaDir, `pipeline-${depth}.lua`)
  writeFileSync(file, `init = function(args)
  local parts = {}
  for i = 1, ${depth} do parts[i] = wrk.format(nil) end
  batch = table.concat(parts)
end
request = function() return batch end
`)
  return file
}

/**
 * Each generator: the command for a pipelining depth, and how to read the
 * number of completed requests from its output.
 * @type {{ name: string, command: (url: string, depth: number) => string[], requests: (out: string) => number }[]}
 */
const generators = [
  {
    name: 'dyno',
    command: (url, depth) => [process.execPath, join(root, 'bin/dyno.js'), 'load', '-c', String(connections), '-d', String(duration), '-p', String(depth), '--json', url],
    requests: (out) => JSON.parse(out).requests.completed
  },
  {
    name: 'autocannon',
    command: (url, depth) => [process.execPath, autocannon, '-c', String(connections), '-d', String(duration), '-p', String(depth), '-j', url],
    requests: (out) => JSON.parse(out).requests.total
  }
]
if (hasWrk) {
  generators.push({
    name: 'wrk',
    command: (url, depth) => ['wrk', '-t', '1', '-c', String(connections), '-d', `${duration}s`,
      ...(depth > 1 ? ['-s', wrkPipelineScript(depth)] : []), url],
    requests: (out) => {
      // "123456 requests in 5.00s": with pipelining, wrk counts each batch once.
      const m = /(\d+) requests in/.exec(out)
      if (!m) throw new Error(`cannot read wrk's output:\n${out}`)
      return Number(m[1])
    }
  })
}

const nginx = await startNginx({ cpu: 0 })
console.log(`target: nginx, 1 worker, CPU 0; generators on CPU 1; ${connections} connections, ${duration} s runs, ${rounds} rounds, interleaved`)
if (!hasWrk) console.log('wrk is not installed (apt-get install wrk): comparing with autocannon only')

try {
  for (const depth of [1, 10]) {
    /** @type {Record<string, { rps: number[], usPerRequest: number[] }>} */
    const runs = Object.fromEntries(generators.map((g) => [g.name, { rps: [], usPerRequest: [] }]))
    for (let round = 0; round < rounds; round++) {
      for (const generator of generators) {
        const { stdout, cpuSeconds } = await measure(generator.command(nginx.url, depth), { cpu: 1 })
        const requests = generator.requests(stdout)
        runs[generator.name].rps.push(requests / duration)
        runs[generator.name].usPerRequest.push(cpuSeconds * 1e6 / requests)
      }
    }
    console.log(`\npipelining ${depth}`)
    console.log('generator    median req/s   CPU µs/request   (runs: req/s)')
    /** @type {Record<string, { rps: number, us: number }>} */
    const summary = {}
    for (const generator of generators) {
      const r = runs[generator.name]
      summary[generator.name] = { rps: median(r.rps), us: median(r.usPerRequest) }
      console.log(`${generator.name.padEnd(12)} ${Math.round(summary[generator.name].rps).toLocaleString('en-US').padStart(12)}   ${summary[generator.name].us.toFixed(2).padStart(14)}   (${r.rps.map((x) => Math.round(x / 1000) + 'k').join(' ')})`)
    }
    for (const peer of generators.slice(1)) {
      const d = summary.dyno
      const p = summary[peer.name]
      console.log(`dyno/${peer.name}: req/s ${(d.rps / p.rps).toFixed(2)}x, CPU per request ${(d.us / p.us).toFixed(2)}x`)
    }
  }
} finally {
  await nginx.stop()
}
