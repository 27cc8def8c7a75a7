import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { dynoError, fileProblem } from '../../errors.js'
import { compareResults, resultKind } from './results.js'

/**
 * `dyno compare a.json b.json`: reads two results of a kind and compares them.
 *
 * @typedef {object} CompareOptions
 * @property {[string, string]} files a then b, relative to io.cwd or absolute
 */

/**
 * @param {CompareOptions} options
 * @param {import('../../commands/io.js').CommandIO} io
 * @returns {Promise<{ result: ReturnType<typeof compareResults>, exitCode: number }>}
 */
export async function runCompare (options, io) {
  const [pathA, pathB] = options.files
  const a = await readResult(pathA, io.cwd)
  const b = await readResult(pathB, io.cwd)
  if (a.kind !== b.kind) {
    throw dynoError('DYNO_MISMATCH', { a: pathA, kindA: a.kind, b: pathB, kindB: b.kind })
  }
  return { result: compareResults(a, b), exitCode: 0 }
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
