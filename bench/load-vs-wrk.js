#!/usr/bin/env node
/**
 * dyno load against wrk, in paired rounds: the same nginx (one worker,
 * pinned to CPU 0), each generator pinned to CPU 1, one short run of each
 * per round, in alternating order (bench/lib/generator-rounds.js). Prints
 * dyno/wrk for requests per second and CPU time per request, with 95%
 * intervals.
 *
 *   node bench/load-vs-wrk.js [--rounds 10] [--duration 10] [--connections 100] [--together] [--keep-env] [--dyno path/to/bin/dyno.js] [--against wrk|path/to/bin/dyno.js]
 *
 * Runs last 10 s by default, wrk's and dyno's own default: dyno's start
 * (Node's and its modules', ~0.1 s of CPU) counts in its CPU per request,
 * and on runs of a few seconds it would weigh more than it does in use.
 *
 * `--dyno` runs another checkout's dyno, `--node` another Node binary;
 * `--against` another checkout's dyno instead of wrk, to measure a change
 * to dyno the same way. `--together` runs the two of each round at once on
 * CPU 1 (bench/lib/generator-rounds.js): a tighter ratio of CPU per request,
 * where the machine's drift would hide a change of a few percent.
 *
 * The generators run without NODE_EXTRA_CA_CERTS unless `--keep-env` is
 * given: Node 20 reads the certificates it names as it starts, before any
 * of dyno's code runs (0.09 s of CPU for a system bundle of 144), a cost of
 * the machine's setting that every Node program there pays and wrk never
 * does. Node 22 and later read them only when a TLS connection needs them.
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { generatorRounds, showRatio } from './lib/generator-rounds.js'
import { startNginx } from './lib/nginx.js'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '100' },
    dyno: { type: 'string', default: fileURLToPath(new URL('../bin/dyno.js', import.meta.url)) },
    against: { type: 'string', default: 'wrk' },
    together: { type: 'boolean', default: false },
    'keep-env': { type: 'boolean', default: false },
    node: { type: 'string', default: process.execPath }
  }
})
const rounds = Number(values.rounds)
const duration = Number(values.duration)
const connections = String(Number(values.connections))

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
 * @param {string} name @param {string} bin @param {string} url
 * @returns {import('./lib/generator-rounds.js').Generator}
 */
const dynoAt = (name, bin, url) => ({
  name,
  command: [values.node, bin, 'load', '-c', connections, '-d', String(duration), '--json', url],
  read: (out) => {
    const result = JSON.parse(out)
    return { requests: result.requests.completed, seconds: result.duration }
  }
})

/** @param {string} url @returns {import('./lib/generator-rounds.js').Generator} */
const wrk = (url) => ({
  name: 'wrk',
  command: ['wrk', '-t', '1', '-c', connections, '-d', `${duration}s`, url],
  read: (out) => {
    const m = /(\d+) requests in ([\d.]+)(m?s)/.exec(out)
    if (!m) throw new Error(`cannot read wrk's output:\n${out}`)
    return { requests: Number(m[1]), seconds: Number(m[2]) / (m[3] === 'ms' ? 1000 : 1) }
  }
})

if (!values['keep-env']) delete process.env.NODE_EXTRA_CA_CERTS

const nginx = await startNginx({ cpu: 0 })
try {
  const peer = values.against === 'wrk' ? wrk(nginx.url) : dynoAt('base', values.against, nginx.url)
  const vs = `dyno/${peer.name}`
  const how = values.together ? 'both at once' : 'order alternating'
  console.log(`${vs}: nginx 1 worker on CPU 0, generators on CPU 1; -c ${connections}, ${duration} s runs, ${rounds} paired rounds, ${how}`)
  const result = await generatorRounds(peer, dynoAt('dyno', values.dyno, nginx.url), { rounds, cpu: 1, together: values.together })
  console.log(`\n${vs} req/s:           ${showRatio(result.rps)}`)
  console.log(`${vs} CPU per request: ${showRatio(result.us)}`)
} finally {
  await nginx.stop()
}
