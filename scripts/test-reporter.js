/**
 * The test reporter of `npm test`'s run on this Node: Node's own spec
 * reporter on a terminal, TAP elsewhere, without the per-file coverage table
 * they would print. What scripts/test.js needs at the end goes, as JSON
 * (a TestRunReport), to the file named by DYNO_TEST_REPORT_FILE: the
 * coverage summary, the number of failed tests, and why coverage could not
 * be reported, if it could not.
 */
import { writeFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { spec as Spec, tap } from 'node:test/reporters'

/** @typedef {import('node:test/reporters').TestEvent} TestEvent */
/** @typedef {import('./coverage.js').TestRunReport} TestRunReport */

/** Node's diagnostic when a coverage file cannot be read: it then exits 1 with every test passed. */
const COVERAGE_PROBLEM = 'Could not report code coverage.'

/**
 * @param {AsyncIterable<TestEvent>} source
 * @param {TestRunReport} report filled in as the events pass
 * @returns {AsyncGenerator<TestEvent, void>}
 */
async function * recorded (source, report) {
  for await (const event of source) {
    if (event.type === 'test:coverage') {
      report.coverage = event.data.summary.files.map((f) => ({ path: f.path, totalLineCount: f.totalLineCount, coveredLineCount: f.coveredLineCount }))
      continue
    }
    if (event.type === 'test:fail' && !event.data.todo && !event.data.skip) report.failed++
    if (event.type === 'test:diagnostic' && event.data.message.includes(COVERAGE_PROBLEM)) report.coverageProblem = event.data.message
    yield event
  }
  if (process.env.DYNO_TEST_REPORT_FILE) writeFileSync(process.env.DYNO_TEST_REPORT_FILE, JSON.stringify(report))
}

/** @param {AsyncIterable<TestEvent>} source */
export default async function * reporter (source) {
  const events = recorded(source, { failed: 0, coverage: null, coverageProblem: null })
  if (process.stdout.isTTY) yield * Readable.from(events).pipe(/** @type {import('node:stream').Transform} */ (new Spec()))
  else yield * tap(events)
}
