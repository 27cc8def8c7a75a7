import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Git repositories with a slow version committed and its fix in the working
 * tree: what `--against HEAD` compares. Each is removed when the test
 * process exits.
 */

const API = new URL('../../lib/micro/api.js', import.meta.url).href
const CPU_BURN = fileURLToPath(new URL('../../examples/cpu-burn/', import.meta.url))

/** @param {string} prefix */
function repository (prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  const git = (/** @type {string[]} */ ...args) => execFileSync('git', ['-c', 'user.name=dyno', '-c', 'user.email=dyno@example.invalid', ...args], { cwd: dir, stdio: 'pipe' })
  git('init', '-q')
  return { dir, git }
}

/** @param {number} passes how many times `work` goes over the numbers */
const library = (passes) => `export function work (numbers) {
  let sum = 0
  for (let r = 0; r < ${passes}; r++) for (let i = 0; i < numbers.length; i++) sum += numbers[i] * r
  return sum
}
export function same (numbers) {
  let sum = 0
  for (let i = 0; i < numbers.length; i++) sum += numbers[i]
  return sum
}
`

/**
 * The last commit's `work` does four times the work of the working tree's;
 * `same` is the same in both; the benchmark file exists only in the working
 * tree (bench.js).
 */
export function microRepository () {
  const { dir, git } = repository('dyno-against-')
  writeFileSync(join(dir, 'lib.js'), library(40))
  git('add', 'lib.js')
  git('commit', '-q', '-m', 'slow')
  writeFileSync(join(dir, 'lib.js'), library(10))
  writeFileSync(join(dir, 'bench.js'), `import { bench } from '${API}'
import { work, same } from './lib.js'
const numbers = () => Array.from({ length: 100 }, (_, i) => i)
bench('work', work, { setup: numbers })
for (const name of ['same 1', 'same 2', 'same 3']) bench(name, same, { setup: numbers })
`)
  return dir
}

/** The CPU-burning example committed, and its fix in the working tree, not committed: the usual case. */
export function cpuBurnRepository () {
  const { dir, git } = repository('dyno-compare-repo-')
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  cpSync(join(CPU_BURN, 'server.js'), join(dir, 'server.js'))
  git('add', '-A')
  git('commit', '-qm', 'slow')
  cpSync(join(CPU_BURN, 'server-fixed.js'), join(dir, 'server.js'))
  return dir
}
