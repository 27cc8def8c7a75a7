/**
 * The timing tier (see scripts/test.js): dyno micro's verdicts from one
 * short run. A few rounds of 50 ms tell four times the work apart, and call
 * byte-identical functions the same, on a quiet machine; a busy one can
 * make the processes of a round differ by more. The default suite checks
 * that each verdict follows from the processes recorded (test/kinds/micro/).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { runDyno } from '../helpers/cli.js'
import { microSaved } from '../helpers/micro.js'
import { microRepository } from '../helpers/repositories.js'

const fixture = (/** @type {string} */ name) => fileURLToPath(new URL(`../fixtures/micro/${name}`, import.meta.url))

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
  const dir = microRepository()
  const { code, stdout, stderr } = await runDyno(['micro', '--rounds', '4', '--warmup', '30ms', '--time', '50ms', '--json', '--against', 'HEAD', 'bench.js'], { cwd: dir, timeout: 120_000 })
  assert.equal(code, 0, stderr)
  const [work, ...same] = JSON.parse(stdout).comparisons
  assert.equal(work.verdict, 'faster', JSON.stringify(work))
  assert.ok(work.low > 1 && work.ratio > 2, JSON.stringify(work))
  // Three independent A/A comparisons at α = 0.05: two or more called different by chance about 0.7% of the time.
  assert.ok(same.filter((/** @type {any} */ c) => c.verdict === 'indistinguishable').length >= 2, JSON.stringify(same))
})
