import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'node:test'
import { fileURLToPath } from 'node:url'
import { suitePassed } from '../../scripts/coverage.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const fixture = join(root, 'test', 'fixtures', 'test-runs', 'coverage-gap.js')

/** `npm test`'s run on this Node, with coverage and dyno's reporter, of the fixture. */
function run (/** @type {NodeJS.ProcessEnv} */ extra) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-reporter-'))
  const reportFile = join(dir, 'report.json')
  // Without NODE_TEST_CONTEXT, the inner run would report to this one instead of through the reporter.
  const { NODE_TEST_CONTEXT, ...env } = process.env
  try {
    const { status } = spawnSync(process.execPath, ['--test', '--experimental-test-coverage', `--test-reporter=${join(root, 'scripts', 'test-reporter.js')}`, '--test-reporter-destination=stdout', fixture], {
      cwd: dir,
      encoding: 'utf8',
      // A folder of its own for the inner run's coverage files, the truncated one among them. Left out, Node
      // would give the inner run npm test's own (it always passes NODE_V8_COVERAGE on), and spoil its coverage.
      env: { ...env, ...extra, DYNO_TEST_REPORT_FILE: reportFile, NODE_V8_COVERAGE: join(dir, 'coverage') }
    })
    return { status, report: JSON.parse(readFileSync(reportFile, 'utf8')) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

test('a truncated coverage file makes Node exit 1, and the suite still passes when every test did', () => {
  const { status, report } = run({ FAIL_ONE: 'no' })
  assert.equal(status, 1, 'Node fails the run it could not measure')
  assert.equal(report.failed, 0)
  assert.match(report.coverageProblem, /Could not report code coverage/)
  assert.equal(suitePassed(status, report), true)
  // Under npm test's coverage, the truncated file stayed out of the suite's own coverage folder.
  const outer = process.env.NODE_V8_COVERAGE
  if (outer) assert.deepEqual(readdirSync(outer).filter((name) => name.includes('-1700000000000-')), [])
})

test('a failed test fails the suite, coverage problem or not', () => {
  const { status, report } = run({ FAIL_ONE: 'yes' })
  assert.equal(status, 1)
  assert.ok(report.failed >= 1)
  assert.equal(suitePassed(status, report), false)
})

test('without the reporter\'s record, only exit code 0 passes', () => {
  assert.equal(suitePassed(0, null), true)
  assert.equal(suitePassed(1, null), false)
  assert.equal(suitePassed(1, { failed: 0, coverage: [], coverageProblem: null }), false)
  assert.equal(suitePassed(null, { failed: 0, coverage: null, coverageProblem: 'Warning: Could not report code coverage.' }), false)
})
