/**
 * Two versions of a small program, profiled for real with `node --cpu-prof`:
 * each "request" runs `burn`, which does UNITS_BEFORE units of work before
 * the fix and UNITS_AFTER after, and `steady`, which does the same work in
 * both. The fixed version has lines added above its functions, as a fix
 * does. Few requests, so the caller stays in the interpreter and V8 inlines
 * nothing into it: every sample of `burn` stays with `burn`.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

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
  const run = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', join(dir, 'prof'), '--cpu-prof-interval', '200', 'server.js'], { cwd: dir, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`the ${dir} version failed: ${run.stderr}`)
  const [file] = readdirSync(join(dir, 'prof'))
  return JSON.parse(readFileSync(join(dir, 'prof', file), 'utf8'))
}

/** The fixed version's burn is this many lines below the first version's. */
export const LINES_ADDED = 3

/**
 * Both versions, each in a folder of its own (as a checkout is), ready for diffProfiles.
 */
export function recordTwoVersions () {
  const root = mkdtempSync(join(tmpdir(), 'dyno-flame-diff-'))
  const before = join(root, 'before')
  const after = join(root, 'after')
  return {
    before: { profile: profiled(before, program(UNITS_BEFORE, '')), requests: REQUESTS, cwd: before },
    after: { profile: profiled(after, program(UNITS_AFTER, '// burn does a tenth of the work now:\n// the rest was never needed.\n\n')), requests: REQUESTS, cwd: after }
  }
}

/**
 * Renames a function in a profile, as if V8 had given it that name.
 * @param {import('../../lib/cpu-profile/cpuprofile.js').CpuProfile} profile @param {string} from @param {string} to
 */
export function renameFunction (profile, from, to) {
  return { ...profile, nodes: profile.nodes.map((n) => n.callFrame.functionName === from ? { ...n, callFrame: { ...n.callFrame, functionName: to } } : n) }
}
