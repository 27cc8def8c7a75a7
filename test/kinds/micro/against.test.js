import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { runDyno } from '../../helpers/cli.js'
import { microRepository } from '../../helpers/repositories.js'
import { waitFor } from '../../helpers/wait.js'

const FAST = ['--rounds', '4', '--warmup', '30ms', '--time', '50ms']

/**
 * A repository whose last commit has `work` doing four times the work of the
 * working tree's, and a benchmark file that exists only in the working tree.
 */
function repository () {
  const dir = microRepository()
  return { dir, worktrees: () => (existsSync(join(dir, '.git', 'worktrees')) ? readdirSync(join(dir, '.git', 'worktrees')) : []) }
}

test('--against: every case of both versions, side by side round by round; each verdict follows from its interval; the checkout is gone', async () => {
  // That the changed case is found faster, and unchanged code not called different, from one short
  // run on a busy machine: test/timing/micro.test.js.
  const repo = repository()
  const { code, stdout, stderr } = await runDyno(['micro', ...FAST, '--json', '--against', 'HEAD', '--fail-if-slower', '50', 'bench.js'], { cwd: repo.dir, timeout: 120_000 })
  const result = JSON.parse(stdout)
  // The gate judges every case: slower than half with 95% confidence is its whole interval below 0.5.
  const slower = result.comparisons.filter((/** @type {any} */ c) => c.high < 0.5).map((/** @type {any} */ c) => c.name)
  const unsettled = result.comparisons.filter((/** @type {any} */ c) => !(c.high < 0.5) && !(c.low > 0.5)).map((/** @type {any} */ c) => c.name)
  assert.deepEqual(result.gate, { percent: 50, failed: slower.length > 0, slower, unsettled })
  assert.equal(code, slower.length > 0 ? 3 : 0, stderr)
  const line = slower.length > 0 ? /^dyno micro: slower by more than 50% with 95% confidence: / : unsettled.length > 0 ? /^dyno micro: cannot tell whether slower by more than 50%: / : /^dyno micro: not slower by more than 50% with 95% confidence: work [\d.]+x/m
  assert.match(stderr, line)
  assert.equal(result.schemaVersion, 1)
  assert.equal(result.before.ref, 'HEAD')
  assert.match(result.before.commit, /^[0-9a-f]{40}$/)
  assert.deepEqual(result.comparisons.map((/** @type {any} */ c) => c.name), ['work', 'same 1', 'same 2', 'same 3'])
  for (const c of result.comparisons) {
    for (const key of ['ratio', 'low', 'high', 'p', 'before', 'after']) assert.equal(typeof c[key], 'number', `${c.name}.${key}`)
    assert.equal(c.rounds, 4)
    // The interval holds the ratio; the verdict is what the interval says, the direction the ratio's.
    assert.ok(c.low <= c.ratio && c.ratio <= c.high, JSON.stringify(c))
    assert.equal(c.verdict, c.low > 1 ? 'faster' : c.high < 1 ? 'slower' : 'indistinguishable', JSON.stringify(c))
    assert.equal(c.verdict === 'indistinguishable', !(c.p < 0.05), JSON.stringify(c))
  }
  assert.deepEqual(repo.worktrees(), [])
})

test('--against refuses, in one line with exit code 2, a folder outside git, a ref that names nothing, and --save; --fail-if-slower needs it', async () => {
  const repo = repository()
  const outside = mkdtempSync(join(tmpdir(), 'dyno-no-git-'))
  after(() => rmSync(outside, { recursive: true, force: true }))
  writeFileSync(join(outside, 'bench.js'), '')
  const cases = [
    [['--against', 'HEAD', 'bench.js'], outside, /is not inside a git repository/],
    [['--against', 'no-such-branch', 'bench.js'], repo.dir, /no commit named "no-such-branch" in /],
    [['--against', '--help=x', 'bench.js'], repo.dir, /"--help=x" is not a git ref/],
    [['--against', 'HEAD', '--save', 'x', 'bench.js'], repo.dir, /--save keeps runs of one version and --against compares two/],
    [['--fail-if-slower', '5', 'bench.js'], repo.dir, /--fail-if-slower judges a change: it goes with --against <git ref>/]
  ]
  for (const [args, cwd, message] of /** @type {[string[], string, RegExp][]} */ (cases)) {
    const { code, stderr } = await runDyno(['micro', ...args], { cwd })
    assert.equal(code, 2, `${args.join(' ')}: ${stderr}`)
    assert.equal(stderr.trim().split('\n').length, 1, stderr)
    assert.match(stderr, message)
  }
  assert.deepEqual(repo.worktrees(), [])
})

test('--against: Ctrl-C ends the run with 130 and removes the checkout', async () => {
  const repo = repository()
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child
  const ran = runDyno(['micro', '--rounds', '50', '--against', 'HEAD', 'bench.js'], { cwd: repo.dir, timeout: 120_000, onSpawn: (c) => { child = c } })
  // Ctrl-C once the checkout exists, however long dyno took to make it.
  await waitFor(() => repo.worktrees().length > 0, { what: 'the checkout of HEAD', timeoutMs: 60_000, intervalMs: 20 })
  child?.kill('SIGINT')
  const { code, stdout } = await ran
  assert.equal(code, 130)
  assert.deepEqual(repo.worktrees(), [])
  // It says how many rounds ran, and gives no ratio from fewer than two.
  assert.doesNotMatch(stdout, /in 50 rounds|∞/)
  if (/side by side in [01] of 50 rounds/.test(stdout)) assert.match(stdout, /too few to compare, no verdict/)
})
