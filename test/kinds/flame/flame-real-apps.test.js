import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { runDyno } from '../../helpers/cli.js'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const NODE = process.execPath
const TSC = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
const [major, minor] = process.versions.node.split('.').map(Number)

/**
 * @param {string[]} command
 * @param {string} [load]
 */
async function flame (command, load = '-c 4 -d 2 http://127.0.0.1:$PORT/') {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-real-'))
  const run = await runDyno(['flame', '--load', load, '--', ...command], { cwd, env: { PORT: '0' }, timeout: 90_000 })
  assert.equal(run.code, 0, run.stderr)
  const [folder] = readdirSync(join(cwd, '.dyno'))
  const html = readFileSync(join(cwd, '.dyno', folder, 'flamegraph.html'), 'utf8')
  const json = /<script type="application\/json" id="flame-data">([^<]*)<\/script>/.exec(html)?.[1]
  assert.ok(json)
  return { ...run, folder: join(cwd, '.dyno', folder), data: /** @type {import('../../../lib/cpu-profile/flame-data.js').FlameData} */ (JSON.parse(json)) }
}

/**
 * The hottest function by self time, with where the report says it is.
 * @param {import('../../../lib/cpu-profile/flame-data.js').FlameData} data
 */
function hottest (data) {
  const self = new Map()
  data.nodes.frame.forEach((frame, i) => self.set(frame, (self.get(frame) ?? 0) + data.nodes.self[i]))
  const [frame] = [...self].filter(([f]) => data.frames.category[f] === 0).sort((a, b) => b[1] - a[1])[0]
  return { name: data.strings[data.frames.name[frame]], file: data.strings[data.frames.file[frame]], line: data.frames.line[frame] }
}

/** The ways this Node line can run the TypeScript example as it is written. */
/** @returns {Array<[string, string[]]>} how the app is run, and its command line */
function typeScriptRunners () {
  const server = join(root, 'examples', 'typescript', 'src', 'server.ts')
  // tsx as the test finds it: the app runs from a temporary folder.
  /** @type {Array<[string, string[]]>} */
  const runners = [['tsx', [NODE, '--import', import.meta.resolve('tsx'), server]]]
  if (major > 23 || (major === 23 && minor >= 6)) runners.push(['type stripping', [NODE, server]])
  else if (major === 22 && minor >= 6) runners.push(['type stripping', [NODE, '--experimental-strip-types', '--no-warnings', server]])
  return runners
}

test('TypeScript run as it is written: the hot function is named at its .ts file and line, with the source panel on the .ts text', async () => {
  for (const [how, command] of typeScriptRunners()) {
    const run = await flame(command)
    const hot = hottest(run.data)
    assert.deepEqual({ ...hot, file: hot.file.replace(/^.*?(examples[/\\])/, '$1') }, { name: 'rankUsers', file: join('examples', 'typescript', 'src', 'routes', 'users.ts'), line: 10 }, how)
    assert.match(run.stdout, /Hottest functions \(self time\)\n +\d+\.\d% +[\d,]+ ms +rankUsers.*examples\/typescript\/src\/routes\/users\.ts:10/, how)
    const source = Object.values(run.data.sources).find((s) => s.text.includes('export function rankUsers (count: number): User[]'))
    assert.ok(source, `${how}: the source panel holds the TypeScript`)
    // The per-line samples fall in rankUsers' body, lines 10 to 20 of the .ts file.
    const hotLine = Number(Object.entries(source.lines).sort((a, b) => b[1] - a[1])[0][0])
    assert.ok(hotLine >= 10 && hotLine <= 20, `${how}: hottest line ${hotLine}`)
  }
})

test('compiled by tsc with source maps in files or inline: the .ts location; a missing map falls back to the JavaScript with one line saying so', async () => {
  const built = mkdtempSync(join(tmpdir(), 'dyno-tsc-'))
  for (const [flag, out] of [['--sourceMap', 'dist'], ['--inlineSourceMap', 'inline']]) {
    const tsc = spawnSync(NODE, [TSC, '-p', join(root, 'examples', 'typescript', 'tsconfig.json'), flag, ...(flag === '--inlineSourceMap' ? ['--sourceMap', 'false'] : []), '--outDir', join(built, out)], { encoding: 'utf8' })
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr)
    writeFileSync(join(built, out, 'package.json'), '{ "type": "module" }')
    const run = await flame([NODE, join(built, out, 'server.js')])
    const hot = hottest(run.data)
    assert.equal(hot.name, 'rankUsers', flag)
    assert.equal(hot.line, 10, flag)
    assert.match(hot.file, /src[/\\]routes[/\\]users\.ts$/, flag)
  }
  rmSync(join(built, 'dist', 'routes', 'users.js.map'))
  const broken = await flame([NODE, join(built, 'dist', 'server.js')])
  assert.match(broken.stdout, /users\.js: its source map users\.js\.map is missing; the report shows its generated code/)
  assert.match(hottest(broken.data).file, /dist[/\\]routes[/\\]users\.js$/)
})

test('bundled by esbuild with a .js.map beside it: the .ts location', async () => {
  // test/fixtures/esbuild/server.js is examples/typescript/src/server.ts as esbuild 0.24 bundles it:
  // esbuild examples/typescript/src/server.ts --bundle --platform=node --format=esm --sourcemap --outfile=test/fixtures/esbuild/server.js
  const run = await flame([NODE, join(root, 'test', 'fixtures', 'esbuild', 'server.js')])
  const hot = hottest(run.data)
  assert.equal(hot.name, 'rankUsers')
  assert.equal(hot.line, 10)
  assert.match(hot.file, /examples[/\\]typescript[/\\]src[/\\]routes[/\\]users\.ts$/)
  assert.match(run.stdout, /rankUsers.*examples\/typescript\/src\/routes\/users\.ts:10/)
})

test('an app that forks children which listen: every child is profiled, the load reaches them', async () => {
  const run = await flame([NODE, join(root, 'test', 'fixtures', 'apps', 'forks-listeners.cjs')], '-c 4 -d 2 http://127.0.0.1:$PORT/')
  const units = run.data.meta.units ?? []
  assert.equal(units.length, 3, JSON.stringify(units))
  assert.match(run.stdout, /Profiled 3 processes, merged above/)
  assert.equal(hottest(run.data).name, 'spin')
})

test('a cluster: every worker is profiled, each with its share, and the primary too', async () => {
  const run = await flame([NODE, join(root, 'examples', 'cluster', 'server.js')], '-c 8 -d 2 http://127.0.0.1:$PORT/')
  const units = run.data.meta.units ?? []
  assert.equal(units.length, 3, JSON.stringify(units))
  const workers = units.filter((u) => u.samples > 0)
  assert.ok(workers.length >= 2, JSON.stringify(units))
  assert.match(run.stdout, /Profiled 3 processes, merged above/)
  assert.equal(hottest(run.data).name, 'checksum')
  assert.ok(existsSync(join(run.folder, 'units.json')))
  // dyno report renders the folder again, every process included.
  const again = await runDyno(['report', run.folder])
  assert.equal(again.code, 0, again.stderr)
  assert.match(again.stdout, /Profiled 3 processes/)
})

test('worker threads: the hot function of a worker is under its thread, named by the worker\'s file', async () => {
  const run = await flame([NODE, join(root, 'examples', 'worker-threads', 'server.js')], '-c 4 -d 2 http://127.0.0.1:$PORT/')
  const { data } = run
  const threads = (data.meta.units ?? []).filter((u) => /thread \d+ · stretch-worker\.js$/.test(u.label))
  assert.equal(threads.length, 2, JSON.stringify(data.meta.units))
  // stretchKey sits below a thread's frame, not the main thread's.
  const unitOf = (/** @type {number} */ node) => {
    let at = node
    while (data.nodes.parent[at] !== 0) at = data.nodes.parent[at]
    return data.strings[data.frames.name[data.nodes.frame[at]]]
  }
  const under = new Set()
  data.nodes.frame.forEach((frame, i) => {
    if (data.strings[data.frames.name[frame]] === 'stretchKey' && data.nodes.self[i] > 0) under.add(unitOf(i))
  })
  assert.ok(under.size > 0 && [...under].every((label) => / thread \d+ · stretch-worker\.js$/.test(label)), [...under].join(', '))
  assert.match(run.stdout, /Profiled 1 process and 2 threads/)
})
