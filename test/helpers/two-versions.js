/**
 * Two versions of a small program, profiled for real with `node --cpu-prof`:
 * each "request" runs `burn`, which does UNITS_BEFORE units of work before
 * the fix and UNITS_AFTER after, and `steady`, which does the same work in
 * both. The fixed version has lines added above its functions, as a fix
 * does. Few requests, so the caller stays in the interpreter and V8 inlines
 * nothing into it: every sample of `burn` stays with `burn`.
 *
 * How much time the samples of a profile add up to depends on how busy the
 * machine was: another process that takes the CPU now and then puts its
 * time on whatever the next sample finds. The tests read the profiles
 * recorded on a quiet machine (test/fixtures/two-versions/, recordedTwoVersions);
 * recordTwoVersions profiles them here and now, for the timing tier. After
 * a change to the program, record the fixtures again:
 *
 *   node -e "import('./test/helpers/two-versions.js').then((m) => m.recordFixtures())"
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gunzipSync, gzipSync } from 'node:zlib'
import { diffProfiles } from '../../lib/kinds/compare/flame-diff.js'

export const REQUESTS = 20
export const UNITS_BEFORE = 10
export const UNITS_AFTER = 1

const program = (/** @type {number} */ units, /** @type {string} */ preamble) => `${preamble}'use strict'
function burn (units) {
  let x = 0
  for (let i = 0; i < units * 500000; i++) x += Math.sqrt(i)
  return x
}
function steady () {
  let y = 0
  for (let i = 0; i < 300000; i++) y += Math.cbrt(i)
  return y
}
function handle () {
  return burn(${units}) + steady()
}
let sum = 0
for (let request = 0; request < ${REQUESTS}; request++) sum += handle()
if (!(sum > 0)) process.exitCode = 1
`

/**
 * @param {string} dir the version's folder
 * @param {string} source
 * @returns {import('../../lib/cpu-profile/cpuprofile.js').CpuProfile}
 */
function profiled (dir, source) {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'server.js'), source)
  const run = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', join(dir, 'prof'), '--cpu-prof-interval', '200', 'server.js'], { cwd: dir, encoding: 'utf8', timeout: 120_000 })
  if (run.status !== 0) throw new Error(`the ${dir} version failed${run.signal ? ` to end within 120 s (${run.signal})` : ''}: ${run.stderr}`)
  const [file] = readdirSync(join(dir, 'prof'))
  return JSON.parse(readFileSync(join(dir, 'prof', file), 'utf8'))
}

/** The fixed version's burn is this many lines below the first version's. */
export const LINES_ADDED = 3

/**
 * Both versions, each in a folder of its own (as a checkout is), profiled
 * now, ready for diffProfiles.
 * @param {string} [root] where the two folders go; a fresh temporary one by default
 */
export function recordTwoVersions (root = mkdtempSync(join(tmpdir(), 'dyno-flame-diff-'))) {
  const before = join(root, 'before')
  const after = join(root, 'after')
  return {
    before: { profile: profiled(before, program(UNITS_BEFORE, '')), requests: REQUESTS, cwd: before },
    after: { profile: profiled(after, program(UNITS_AFTER, '// burn does a tenth of the work now:\n// the rest was never needed.\n\n')), requests: REQUESTS, cwd: after }
  }
}

const FIXTURES = fileURLToPath(new URL('../fixtures/two-versions/', import.meta.url))
/** How the fixtures' profiles write the folder that holds the two versions, wherever the repository is. */
const RECORDED_AT = 'file:///two-versions'

/**
 * Both versions as recorded in test/fixtures/two-versions/, their files
 * there: the same profiles on every run, however busy the machine.
 */
export function recordedTwoVersions () {
  const side = (/** @type {'before' | 'after'} */ name) => {
    const text = gunzipSync(readFileSync(join(FIXTURES, `${name}.cpuprofile.gz`))).toString('utf8')
    /** @type {import('../../lib/cpu-profile/cpuprofile.js').CpuProfile} */
    const profile = JSON.parse(text.split(RECORDED_AT).join(pathToFileURL(FIXTURES).href.replace(/\/$/, '')))
    return { profile, requests: REQUESTS, cwd: join(FIXTURES, name) }
  }
  return { before: side('before'), after: side('after') }
}

/**
 * Records the fixtures: both versions profiled until a pair shows what the
 * program does (burn a tenth of the time after, steady the same within a
 * quarter), as a quiet machine shows it.
 */
export function recordFixtures () {
  for (let attempt = 1; attempt <= 10; attempt++) {
    const root = mkdtempSync(join(tmpdir(), 'dyno-flame-diff-record-'))
    const versions = recordTwoVersions(root)
    const { functions } = diffProfiles(versions)
    const change = (/** @type {string} */ name) => {
      const f = functions.find((f) => f.name === name)
      return f ? f.after / f.before : NaN
    }
    const burn = change('burn')
    const steady = change('steady')
    if (burn < 0.2 && Math.abs(steady - 1) < 0.25) {
      for (const name of /** @type {const} */ (['before', 'after'])) {
        mkdirSync(join(FIXTURES, name), { recursive: true })
        writeFileSync(join(FIXTURES, name, 'server.js'), readFileSync(join(root, name, 'server.js')))
        const text = JSON.stringify(versions[name].profile).split(pathToFileURL(root).href).join(RECORDED_AT)
        writeFileSync(join(FIXTURES, `${name}.cpuprofile.gz`), gzipSync(text, { level: 9 }))
      }
      rmSync(root, { recursive: true, force: true })
      process.stdout.write(`recorded on attempt ${attempt}: burn after/before ${burn.toFixed(3)}, steady ${steady.toFixed(3)}\n`)
      return
    }
    rmSync(root, { recursive: true, force: true })
    process.stdout.write(`attempt ${attempt}: burn after/before ${burn.toFixed(3)}, steady ${steady.toFixed(3)}: the machine is too busy, again\n`)
  }
  throw new Error('no quiet pair of profiles in 10 attempts: record on a quieter machine')
}

/**
 * Renames a function in a profile, as if V8 had given it that name.
 * @param {import('../../lib/cpu-profile/cpuprofile.js').CpuProfile} profile @param {string} from @param {string} to
 */
export function renameFunction (profile, from, to) {
  return { ...profile, nodes: profile.nodes.map((n) => n.callFrame.functionName === from ? { ...n, callFrame: { ...n.callFrame, functionName: to } } : n) }
}
