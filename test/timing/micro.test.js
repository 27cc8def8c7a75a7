/**
 * The timing tier (see scripts/test.js): dyno micro's verdicts from one
 * short run. A few rounds of 50 ms tell four times the work apart, and call
 * byte-identical functions the same, on a quiet machine; a busy one can
 * make the processes of a round differ by more. The default suite checks
 * that each verdict follows from the processes recorded (test/kinds/micro/).
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { runDyno } from '../helpers/cli.js'
import { microSaved } from '../helpers/micro.js'

const fixture = (/** @type {string} */ name) => fileURLToPath(new URL(`../fixtures/micro/${name}`, import.meta.url))
const api = new URL('../../lib/micro/api.js', import.meta.url).href

test('a real difference (four times the work) is significant, and the faster case is named', async () => {
  const { code, stdout, stderr } = await microSaved(['--rounds', '6', '--warmup', '30ms', '--time', '50ms', fixture('real-difference.js')])
  assert.equal(code, 0, stderr)
  assert.match(stdout, /│ more +│ [\d,]+ +│ [\d.]+x slower \([\d.]+x–[\d.]+x\) │ yes, p [<=] 0\.0\d+/)
  assert.match(stdout, /^Fastest is less$/m)
})

test('A/A: byte-identical functions are not called different', async () => {
  // Five independent pairs, each tested at α = 0.05. Requiring 3 of the 5 to be "cannot be told
  // apart" fails by chance with probability about 10 × 0.05³ ≈ 0.1%.
  const { code, stdout, stderr } = await microSaved(['--rounds', '3', '--warmup', '30ms', '--time', '50ms', fixture('aa.js')])
  assert.equal(code, 0, stderr)
  const verdicts = stdout.match(/^Fastest is .*$/gm) ?? []
  assert.equal(verdicts.length, 5, stdout)
  const together = verdicts.filter((v) => /^Fastest is [ab] or [ab]: the cases cannot be told apart/.test(v))
  assert.ok(together.length >= 3, stdout)
})

test('--against: the case doing a quarter of the work is faster with the right sign, unchanged code is not called different', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-against-timing-'))
  const git = (/** @type {string[]} */ ...args) => execFileSync('git', ['-c', 'user.name=dyno', '-c', 'user.email=dyno@example.invalid', ...args], { cwd: dir, stdio: 'pipe' })
  /** @param {number} passes */
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
  git('init', '-q')
  writeFileSync(join(dir, 'lib.js'), library(40))
  git('add', 'lib.js')
  git('commit', '-q', '-m', 'slow')
  writeFileSync(join(dir, 'lib.js'), library(10))
  writeFileSync(join(dir, 'bench.js'), `import { bench } from '${api}'
import { work, same } from './lib.js'
const numbers = () => Array.from({ length: 100 }, (_, i) => i)
bench('work', work, { setup: numbers })
for (const name of ['same 1', 'same 2', 'same 3']) bench(name, same, { setup: numbers })
`)
  const { code, stdout, stderr } = await runDyno(['micro', '--rounds', '4', '--warmup', '30ms', '--time', '50ms', '--json', '--against', 'HEAD', 'bench.js'], { cwd: dir, timeout: 120_000 })
  assert.equal(code, 0, stderr)
  const [work, ...same] = JSON.parse(stdout).comparisons
  assert.equal(work.verdict, 'faster', JSON.stringify(work))
  assert.ok(work.low > 1 && work.ratio > 2, JSON.stringify(work))
  // Three independent A/A comparisons at α = 0.05: two or more called different by chance about 0.7% of the time.
  assert.ok(same.filter((/** @type {any} */ c) => c.verdict === 'indistinguishable').length >= 2, JSON.stringify(same))
})
