import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { Profile } from 'pprof-format'
import { runDyno, signalWhenPrinted } from '../../helpers/cli.js'
import { exampleWithDependencies } from '../../helpers/examples.js'

const NODE = process.execPath
const root = fileURLToPath(new URL('../../..', import.meta.url))
const example = (/** @type {string} */ path) => join(root, 'examples', path)
const fixture = (/** @type {string} */ path) => join(root, 'test', 'fixtures', 'apps', path)

/** Runs dyno flame in a fresh folder; returns the output and the run folder. */
async function flame (/** @type {string[]} */ args, /** @type {NodeJS.ProcessEnv} */ env = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-flame-'))
  // Examples listen on PORT, 3000 when unset: a user's machine may have something there.
  const run = await runDyno(['flame', ...args], { cwd, env: { PORT: '0', ...env }, timeout: 60_000 })
  const runs = existsSync(join(cwd, '.dyno')) ? readdirSync(join(cwd, '.dyno')) : []
  const folder = runs.length === 1 ? join(cwd, '.dyno', runs[0]) : null
  return { ...run, cwd, folder }
}

/** @param {string} folder */
function flameData (folder) {
  const html = readFileSync(join(folder, 'flamegraph.html'), 'utf8')
  const json = /<script type="application\/json" id="flame-data">([^<]*)<\/script>/.exec(html)?.[1]
  assert.ok(json, 'the report embeds its data')
  return /** @type {import('../../../lib/cpu-profile/flame-data.js').FlameData} */ (JSON.parse(json))
}

/**
 * The function with the most self time, of those in any category.
 * @param {import('../../../lib/cpu-profile/flame-data.js').FlameData} data
 */
function hottest (data) {
  /** @type {Map<string, number>} */
  const self = new Map()
  data.nodes.frame.forEach((f, i) => {
    if (f < 0) return
    const name = data.strings[data.frames.name[f]]
    self.set(name, (self.get(name) ?? 0) + data.nodes.self[i])
  })
  return [...self].sort((a, b) => b[1] - a[1])[0]?.[0]
}

/**
 * Share of samples in stacks that pass through a matching frame.
 * @param {import('../../../lib/cpu-profile/flame-data.js').FlameData} data
 * @param {(name: string, file: string) => boolean} match
 */
function stackShare (data, match) {
  const { nodes, frames, strings } = data
  const inside = new Uint8Array(nodes.frame.length)
  let samples = 0
  for (let i = 1; i < nodes.frame.length; i++) {
    const f = nodes.frame[i]
    inside[i] = inside[nodes.parent[i]] || (frames.file[f] >= 0 && match(strings[frames.name[f]], strings[frames.file[f]])) ? 1 : 0
    if (inside[i]) samples += nodes.self[i]
  }
  return samples / data.meta.samples
}

test('the CPU-burning function is the hottest, on this Node line, inlined or not', async () => {
  const run = await flame(['--load', '-c 4 -d 2 http://127.0.0.1:$PORT/', '--', NODE, example('cpu-burn/server.js')])
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /Running 2s test @ http:\/\/127\.0\.0\.1:\d+\//)
  assert.match(run.stdout, /│ Latency │/)
  assert.match(run.stdout, /Hottest functions \(self time\)\n +\d+\.\d% +[\d,]+ ms +computePrimes +.*examples\/cpu-burn\/server\.js:5/)
  assert.match(run.stdout, /The app stopped by dyno after the load\./)
  assert.match(run.stdout, /Report: file:\/\/.*\/flamegraph\.html/)
  const folder = /** @type {string} */ (run.folder)
  // The report's data agree with the terminal. (How large its share is depends on how busy the
  // machine is: another process's time lands on whatever the next sample finds; test/timing/flame.test.js.)
  assert.equal(hottest(flameData(folder)), 'computePrimes')

  // The run folder: standard formats, and what it takes to render again.
  const meta = JSON.parse(readFileSync(join(folder, 'meta.json'), 'utf8'))
  assert.equal(meta.schemaVersion, 2)
  assert.equal(meta.kind, 'flame')
  assert.equal(meta.end.how, 'stopped by dyno after the load')
  assert.equal(meta.node, process.versions.node)
  assert.ok(meta.load.requests.completed > 0)
  const profile = JSON.parse(readFileSync(join(folder, 'profile.cpuprofile'), 'utf8'))
  assert.ok(profile.nodes.length > 10 && profile.samples.length > 500)
  const pprof = Profile.decode(gunzipSync(readFileSync(join(folder, 'profile.pb.gz'))))
  assert.ok(pprof.sample.length > 0)
  const folded = readFileSync(join(folder, 'profile.folded'), 'utf8').trim().split('\n')
  assert.ok(folded.every((line) => /^[^;]+(;[^;]+)* \d+$/.test(line)))
  assert.ok(folded.some((line) => /;computePrimes [^;]*server\.js:5 \d+$/.test(line)))

  // dyno report renders it again from the folder alone.
  const again = await runDyno(['report', folder])
  assert.equal(again.code, 0, again.stderr)
  assert.match(again.stdout, /computePrimes/)
})

test('template compilation takes a larger share in development than in production', async () => {
  // express and pug are the example's own dependencies, not dyno's.
  await exampleWithDependencies('template')
  // Every template compilation goes through pug's compileBody; loading pug's modules at start does not.
  const compiling = (/** @type {string} */ name, /** @type {string} */ file) => name === 'compileBody' && file.endsWith('node_modules/pug/lib/index.js')
  const dev = await flame(['--load', '-c 4 -d 3 http://127.0.0.1:$PORT/hello', '--', NODE, example('template/server.js')], { NODE_ENV: 'development' })
  assert.equal(dev.code, 0, dev.stderr)
  const prod = await flame(['--load', '-c 4 -d 2 http://127.0.0.1:$PORT/hello', '--', NODE, example('template/server.js')], { NODE_ENV: 'production' })
  assert.equal(prod.code, 0, prod.stderr)
  const devShare = stackShare(flameData(/** @type {string} */ (dev.folder)), compiling)
  const prodShare = stackShare(flameData(/** @type {string} */ (prod.folder)), compiling)
  // Development compiles for every request, production once. (That it dominates in development
  // depends on how busy the machine is: test/timing/flame.test.js.)
  assert.ok(devShare > prodShare, `development: ${(devShare * 100).toFixed(1)}% compiling, production: ${(prodShare * 100).toFixed(1)}%`)
})

test('npm start: the process that listens is the one profiled', async () => {
  const run = await flame(['--load', '-a 300 -c 2 http://127.0.0.1:$PORT/', '--', 'npm', 'start', '--silent', '--prefix', fixture('npm-start')])
  assert.equal(run.code, 0, run.stderr)
  const meta = JSON.parse(readFileSync(join(/** @type {string} */ (run.folder), 'meta.json'), 'utf8'))
  assert.match(meta.process.argv.join(' '), /server\.mjs$/)
  // Its work is in the profile. (The terminal's top ten also holds npm's own
  // start-up, merged in, which can outweigh 300 requests on a busy machine.)
  const data = flameData(/** @type {string} */ (run.folder))
  assert.ok(stackShare(data, (name) => name === 'renderPage') > 0, 'renderPage has samples')
})

test('--on-port runs a command once the app listens, with PORT set', async () => {
  const bin = join(root, 'bin', 'dyno.js')
  const run = await flame(['--on-port', `"${NODE}" "${bin}" load -a 100 --json http://127.0.0.1:$PORT/ > load.json`, '--', NODE, example('cpu-burn/server.js')])
  assert.equal(run.code, 0, run.stderr)
  assert.equal(JSON.parse(readFileSync(join(run.cwd, 'load.json'), 'utf8')).requests.completed, 100)
  assert.match(run.stdout, /The app stopped by dyno after the --on-port command\./)
})

test('an app that exits on its own: its profile is written, its output and exit code untouched', async () => {
  const run = await flame(['--', NODE, fixture('exits-with-code.cjs')])
  assert.equal(run.code, 1)
  assert.equal(run.stdout.split('\n')[0], 'app output line')
  assert.match(run.stdout, /The app exited on its own with code 3\./)
  assert.match(run.stdout, /work .*exits-with-code\.cjs:2/)
  assert.ok(existsSync(join(/** @type {string} */ (run.folder), 'flamegraph.html')))
})

test('an app that crashes under load: the report is written and says so, exit code 1', async () => {
  const run = await flame(['--load', '-c 2 -d 3 http://127.0.0.1:$PORT/', '--', NODE, fixture('crashes.cjs')])
  assert.equal(run.code, 1)
  assert.match(run.stdout, /The app crashed: uncaught Error: boom after 20 requests \(exit code 1\)\./)
  assert.ok(existsSync(join(/** @type {string} */ (run.folder), 'flamegraph.html')))
  assert.equal(flameData(/** @type {string} */ (run.folder)).meta.exit?.how.startsWith('crashed'), true)
})

test('an app with its own SIGINT handler that calls process.exit still gets its profile', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-flame-'))
  const run = await runDyno(['flame', '--', NODE, fixture('exits-on-sigint.cjs')], {
    cwd,
    onSpawn: (child) => signalWhenPrinted(child, 'app listening', 'SIGINT')
  })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /app says goodbye/)
  assert.match(run.stdout, /The app stopped with Ctrl-C\./)
  const [folder] = readdirSync(join(cwd, '.dyno'))
  assert.ok(existsSync(join(cwd, '.dyno', folder, 'profile.cpuprofile')))
})

test('bad commands and an app that never listens: one line each', async () => {
  const missing = await flame(['--', 'no-such-program-dyno', 'app.js'])
  assert.equal(missing.code, 2)
  assert.equal(missing.stderr.trim(), 'dyno flame: command not found: no-such-program-dyno; give the command that starts your app, like: -- node app.js')
  assert.equal(missing.folder, null)

  const notNode = await flame(['--', 'sh', '-c', 'exit 0'])
  assert.equal(notNode.code, 2)
  assert.match(notNode.stderr.trim(), /^dyno flame: "sh -c exit 0" started no Node\.js process; dyno observes commands that run node/)

  const silent = await flame(['--listen-timeout', '1', '--load', '-d 1 http://127.0.0.1:$PORT/', '--', NODE, fixture('never-listens.cjs')])
  assert.equal(silent.code, 1, silent.stderr)
  assert.equal(silent.stderr.trim(), 'dyno flame: the app did not listen on a port within 1 s; raise --listen-timeout, or check that it starts a server')
  assert.match(silent.stdout, /Report: file:/)

  // Node started late (a slow machine, a launcher that waits): still an app that did not listen, not "no Node.js".
  const late = await flame(['--listen-timeout', '1', '--load', '-d 1 http://127.0.0.1:$PORT/', '--', 'sh', '-c', `sleep 2; exec "${NODE}" "${fixture('never-listens.cjs')}"`])
  assert.equal(late.stderr.trim(), 'dyno flame: the app did not listen on a port within 1 s; raise --listen-timeout, or check that it starts a server')
  assert.equal(late.code, 1)

  const noCommand = await flame([])
  assert.equal(noCommand.code, 2)
  assert.match(noCommand.stderr, /no command to observe/)

  const badLoad = await flame(['--load', '-c lots http://127.0.0.1:$PORT/', '--', NODE, example('cpu-burn/server.js')])
  assert.equal(badLoad.code, 2)
  assert.match(badLoad.stderr.trim(), /^dyno flame: -c\/--connections takes a whole number, not "lots"$/)
  assert.equal(badLoad.folder, null)
})

test('--view renders a profile written by node --cpu-prof', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-view-'))
  const { spawnSync } = await import('node:child_process')
  spawnSync(NODE, ['--cpu-prof', '--cpu-prof-dir', cwd, fixture('exits-with-code.cjs')], { cwd })
  const [file] = readdirSync(cwd).filter((f) => f.endsWith('.cpuprofile'))
  const run = await runDyno(['flame', '--view', file], { cwd })
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /work/)
  const bad = await runDyno(['flame', '--view', 'package.json'], { cwd: root })
  assert.equal(bad.code, 2)
  assert.match(bad.stderr, /^dyno flame: package\.json is not a CPU profile \(\.cpuprofile\): it has no "nodes" array\n$/)
})
