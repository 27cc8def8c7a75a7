/**
 * The timing tier (see scripts/test.js): the shares of a CPU profile taken
 * under load. On a quiet machine they are the app's; on a busy one another
 * process's time lands on whatever the next sample finds, and the shares
 * blur. The default suite checks which function is hottest, and which way
 * the shares lean (test/kinds/flame/).
 */
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { runDyno } from '../helpers/cli.js'
import { root } from '../helpers/real.js'

/** dyno flame in a fresh folder; returns its run and the FlameData its report embeds. @param {string[]} args @param {NodeJS.ProcessEnv} [env] */
async function flame (args, env = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-flame-timing-'))
  const run = await runDyno(['flame', ...args], { cwd, env: { PORT: '0', ...env }, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  const runs = existsSync(join(cwd, '.dyno')) ? readdirSync(join(cwd, '.dyno')) : []
  const html = readFileSync(join(cwd, '.dyno', runs[0], 'flamegraph.html'), 'utf8')
  /** @type {import('../../lib/cpu-profile/flame-data.js').FlameData} */
  const data = JSON.parse(/** @type {string} */ (/<script type="application\/json" id="flame-data">([^<]*)<\/script>/.exec(html)?.[1]))
  return data
}

/**
 * Share of samples in stacks that pass through a matching frame (self time when `self`).
 * @param {import('../../lib/cpu-profile/flame-data.js').FlameData} data
 * @param {(name: string, file: string) => boolean} match
 */
function share (data, match, self = false) {
  const { nodes, frames, strings } = data
  const inside = new Uint8Array(nodes.frame.length)
  let samples = 0
  for (let i = 1; i < nodes.frame.length; i++) {
    const f = nodes.frame[i]
    const here = frames.file[f] >= 0 && match(strings[frames.name[f]], strings[frames.file[f]])
    inside[i] = !self && inside[nodes.parent[i]] ? 1 : here ? 1 : 0
    if (inside[i]) samples += nodes.self[i]
  }
  return samples / data.meta.samples
}

test('the CPU-burning function holds most of the self time', async () => {
  const data = await flame(['--load', '-c 4 -d 2 http://127.0.0.1:$PORT/', '--', process.execPath, join(root, 'examples', 'cpu-burn', 'server.js')])
  const computing = share(data, (name) => name === 'computePrimes', true)
  assert.ok(computing > 0.8, `computePrimes holds ${(computing * 100).toFixed(1)}% of self time`)
})

test('template compilation dominates in development but not in production', async () => {
  const compiling = (/** @type {string} */ name, /** @type {string} */ file) => name === 'compileBody' && file.endsWith('node_modules/pug/lib/index.js')
  const server = join(root, 'examples', 'template', 'server.js')
  const dev = share(await flame(['--load', '-c 4 -d 3 http://127.0.0.1:$PORT/hello', '--', process.execPath, server], { NODE_ENV: 'development' }), compiling)
  const prod = share(await flame(['--load', '-c 4 -d 2 http://127.0.0.1:$PORT/hello', '--', process.execPath, server], { NODE_ENV: 'production' }), compiling)
  assert.ok(dev > 0.5, `development: ${(dev * 100).toFixed(1)}% compiling`)
  assert.ok(prod < 0.1, `production: ${(prod * 100).toFixed(1)}% compiling`)
})
