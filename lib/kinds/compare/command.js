import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { dynoError, exitCodeOf, fileProblem } from '../../errors.js'
import { slowerGate } from '../../stats/comparison.js'
import { compareResults, resultKind } from './results.js'

/**
 * `dyno compare a.json b.json`: reads two results of a kind and compares them.
 *
 * @typedef {object} CompareOptions
 * @property {[string, string]} files a then b, relative to io.cwd or absolute
 * @property {number | null} [failIfSlower] the regression gate's percent: exit code 3 when b is slower than that
 */

/**
 * @param {CompareOptions} options
 * @param {import('../../commands/io.js').CommandIO} io
 * @returns {Promise<{ result: ReturnType<typeof compareResults> & { gate: ReturnType<typeof slowerGate> | null }, exitCode: number }>}
 */
export async function runCompare (options, io) {
  const [pathA, pathB] = options.files
  const a = await readResult(pathA, io.cwd)
  const b = await readResult(pathB, io.cwd)
  if (a.kind !== b.kind) {
    throw dynoError('DYNO_MISMATCH', { a: pathA, kindA: a.kind, b: pathB, kindB: b.kind })
  }
  const result = compareResults(a, b)
  // Every figure compared is a rate (ops/sec, req/sec): higher is faster.
  const gate = typeof options.failIfSlower === 'number' ? slowerGate(result.comparisons, options.failIfSlower) : null
  return { result: { ...result, gate }, exitCode: gate?.failed ? exitCodeOf('DYNO_SLOWER') : 0 }
}

/**
 * @param {string} path @param {string} cwd
 */
async function readResult (path, cwd) {
  let text
  try {
    text = await readFile(resolve(cwd, path), 'utf8')
  } catch (err) {
    throw dynoError('DYNO_BAD_FILE.unreadable', { file: path, why: fileProblem(err) })
  }
  let doc
  try {
    doc = JSON.parse(text)
  } catch {
    throw dynoError('DYNO_BAD_FILE.notJson', { file: path })
  }
  const kind = resultKind(doc)
  if (!kind) throw dynoError('DYNO_BAD_FILE.notResult', { file: path })
  return { kind, doc }
}
