/**
 * The test reporter of `npm test`'s run on this Node: Node's own spec
 * reporter on a terminal, TAP elsewhere, without the per-file coverage table
 * they would print; the coverage summary goes, as JSON, to the file named by
 * DYNO_COVERAGE_FILE, for scripts/test.js to print per area at the end.
 */
import { writeFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { spec as Spec, tap } from 'node:test/reporters'

/** @typedef {import('node:test/reporters').TestEvent} TestEvent */

/**
 * @typedef {object} CoveredFile
 * @property {string} path absolute
 * @property {number} totalLineCount
 * @property {number} coveredLineCount
 */

/**
 * @param {AsyncIterable<TestEvent>} source
 * @returns {AsyncGenerator<TestEvent, void>}
 */
async function * withoutCoverage (source) {
  for await (const event of source) {
    if (event.type !== 'test:coverage') {
      yield event
      continue
    }
    const file = process.env.DYNO_COVERAGE_FILE
    /** @type {CoveredFile[]} */
    const files = event.data.summary.files.map((f) => ({ path: f.path, totalLineCount: f.totalLineCount, coveredLineCount: f.coveredLineCount }))
    if (file) writeFileSync(file, JSON.stringify(files))
  }
}

/** @param {AsyncIterable<TestEvent>} source */
export default async function * reporter (source) {
  const events = withoutCoverage(source)
  if (process.stdout.isTTY) yield * Readable.from(events).pipe(/** @type {import('node:stream').Transform} */ (new Spec()))
  else yield * tap(events)
}
