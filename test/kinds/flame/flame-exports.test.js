import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { Profile } from 'pprof-format'
import { runDyno } from '../../helpers/cli.js'

/** @typedef {import('../../../lib/cpu-profile/flame-data.js').FlameData} FlameData */

const root = fileURLToPath(new URL('../../..', import.meta.url))
const SERVER = join(root, 'examples', 'cpu-burn', 'server.js')

/** Profiles examples/cpu-burn under load in a fresh folder; returns the output and the run folder. */
async function profileCpuBurn (/** @type {string[]} */ flags = [], /** @type {NodeJS.ProcessEnv} */ env = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-exports-'))
  const run = await runDyno(['flame', ...flags, '--load', '-c 4 -d 2 http://127.0.0.1:$PORT/', '--', process.execPath, SERVER], { cwd, env: { PORT: '0', ...env }, timeout: 60_000 })
  assert.equal(run.code, 0, run.stderr)
  const [name] = readdirSync(join(cwd, '.dyno'))
  return { ...run, cwd, folder: join(cwd, '.dyno', name) }
}

/** @param {string} folder @returns {FlameData} */
function reportData (folder) {
  const html = readFileSync(join(folder, 'flamegraph.html'), 'utf8')
  return JSON.parse(/** @type {string} */ (/<script type="application\/json" id="flame-data">([^<]*)<\/script>/.exec(html)?.[1]))
}

/** The function with the most self time. @param {FlameData} data */
function hottestFunction (data) {
  /** @type {Map<string, number>} */
  const self = new Map()
  data.nodes.frame.forEach((f, i) => {
    if (f < 0) return
    const name = data.strings[data.frames.name[f]]
    self.set(name, (self.get(name) ?? 0) + data.nodes.self[i])
  })
  return [...self].sort((a, b) => b[1] - a[1])[0]?.[0]
}

const run = await profileCpuBurn(['--sampling-interval', '100'])

test('pprof gives each line of the hot function the samples V8 took on it', () => {
  const data = reportData(run.folder)
  const pprof = Profile.decode(gunzipSync(readFileSync(join(run.folder, 'profile.pb.gz'))))
  const str = (/** @type {number | bigint} */ i) => pprof.stringTable.strings[Number(i)]
  const computePrimes = pprof.function.find((f) => str(f.name) === 'computePrimes')
  assert.ok(computePrimes)
  assert.match(str(computePrimes.filename), /examples\/cpu-burn\/server\.js$/)
  const lineOf = new Map(pprof.location.map((l) => [Number(l.id), l.line[0]]))
  /** @type {Record<string, number>} samples with computePrimes on top, by line */
  const lines = {}
  for (const s of pprof.sample) {
    const top = /** @type {import('pprof-format').Line} */ (lineOf.get(Number(s.locationId[0])))
    if (Number(top.functionId) === Number(computePrimes.id)) lines[Number(top.line)] = (lines[Number(top.line)] ?? 0) + Number(s.value[0])
  }
  // The same lines, and the same counts, as the report's source panel shows (computePrimes spans lines 5 to 18).
  const file = Object.keys(data.sources).find((f) => data.strings[Number(f)].endsWith('server.js'))
  const shown = Object.fromEntries(Object.entries(data.sources[/** @type {string} */ (file)].lines).filter(([line]) => Number(line) >= 5 && Number(line) <= 18))
  // A sample V8 gave no line (Node 24 and 26, now and then) goes to the function's own line 5 in pprof.
  // The source panel may hold samples of its own on line 5 (the function's entry): pprof has those plus the unplaced.
  const unplaced = (lines['5'] ?? 0) - (shown['5'] ?? 0)
  assert.ok(unplaced >= 0 && unplaced <= 3, `${unplaced} samples without a line`)
  if (shown['5'] === undefined) delete lines['5']
  else lines['5'] = shown['5']
  assert.deepEqual(lines, shown)
  assert.ok(Object.keys(lines).length >= 2, JSON.stringify(lines))
  const hottest = Object.entries(lines).sort((a, b) => b[1] - a[1])[0][0]
  assert.notEqual(hottest, '5', 'not the line the function starts on')
})

test('dyno\'s own agent frames are in the raw profile only, not in the report or an export', () => {
  const underAgent = (/** @type {string} */ s) => /[/\\]lib[/\\](agent|v8)[/\\]/.test(s)
  const raw = JSON.parse(readFileSync(join(run.folder, 'profile.cpuprofile'), 'utf8'))
  assert.ok(raw.nodes.some((/** @type {{ callFrame: { url: string } }} */ n) => underAgent(n.callFrame.url)), 'the agent was sampled')
  const data = reportData(run.folder)
  assert.deepEqual(data.strings.filter(underAgent), [])
  assert.ok(!data.strings.includes('startAgent'))
  assert.ok(/** @type {number} */ (data.meta.agentSamples) > 0)
  assert.ok(!underAgent(readFileSync(join(run.folder, 'profile.folded'), 'utf8')))
  const pprof = Profile.decode(gunzipSync(readFileSync(join(run.folder, 'profile.pb.gz'))))
  assert.deepEqual(pprof.stringTable.strings.filter(underAgent), [])
  assert.doesNotMatch(run.stdout, /startAgent|lib\/agent/)
})

test('a report rendered again without the files the agent wrote says what it lacks', async () => {
  assert.doesNotMatch(run.stdout, /Warning/)
  for (const name of ['raw', 'functions.json', 'tiers.json']) rmSync(join(run.folder, name), { recursive: true })
  const again = await runDyno(['report', run.folder])
  assert.equal(again.code, 0, again.stderr)
  const warnings = [
    'functions.json is missing from the run folder: samples of inlined functions stay with the function they were inlined into',
    'tiers.json is missing from the run folder: the optimization tiers are unknown'
  ]
  assert.match(again.stdout, new RegExp(warnings.map((w) => `Warning: ${w}`).join('\n')))
  assert.deepEqual(reportData(run.folder).meta.warnings, warnings)
})

test('under an inherited NODE_V8_COVERAGE (c8, nyc) the hot function still holds its samples', async () => {
  const coverage = mkdtempSync(join(tmpdir(), 'dyno-coverage-'))
  const covered = await profileCpuBurn([], { NODE_V8_COVERAGE: coverage })
  // Coverage gives every function debug info; the samples must still go to the function by its name.
  assert.equal(hottestFunction(reportData(covered.folder)), 'computePrimes')
})

test('--view of a profile whose samples point at nodes it lacks: malformed, exit 2', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-view-'))
  spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', cwd, join(root, 'test', 'fixtures', 'apps', 'exits-with-code.cjs')], { cwd })
  const [file] = readdirSync(cwd).filter((f) => f.endsWith('.cpuprofile'))
  const profile = JSON.parse(readFileSync(join(cwd, file), 'utf8'))
  // Cut out the busiest node, as a truncated or hand-edited file might.
  const counts = new Map()
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1)
  const [busiest, samples] = [...counts].sort((a, b) => b[1] - a[1])[0]
  profile.nodes = profile.nodes.filter((/** @type {{ id: number }} */ n) => n.id !== busiest)
  for (const n of profile.nodes) n.children = n.children?.filter((/** @type {number} */ c) => c !== busiest)
  writeFileSync(join(cwd, 'cut.cpuprofile'), JSON.stringify(profile))
  const view = await runDyno(['flame', '--view', 'cut.cpuprofile'], { cwd })
  assert.equal(view.code, 2)
  assert.equal(view.stderr, `dyno flame: cut.cpuprofile is not a CPU profile (.cpuprofile): ${samples} of its ${profile.samples.length} samples point at nodes it does not have (the first at node ${busiest})\n`)
  assert.equal(view.stdout, '')
})
