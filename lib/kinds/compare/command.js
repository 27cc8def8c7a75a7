import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileProblem, usageError } from '../../errors.js'
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
    throw usageError('DYNO_MISMATCH', `${pathA} is a ${a.kind} result and ${pathB} a ${b.kind} result; compare two of a kind`)
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
    throw usageError('DYNO_BAD_FILE', `cannot read ${path}: ${fileProblem(err)}`)
  }
  let doc
  try {
    doc = JSON.parse(text)
  } catch {
    throw usageError('DYNO_BAD_FILE', `${path} is not JSON; pass results written by dyno micro --json/--save or dyno load --json`)
  }
  const kind = resultKind(doc)
  if (!kind) throw usageError('DYNO_BAD_FILE', `${path} is not a result dyno compare understands (dyno micro --json/--save, or dyno load --json, with a schemaVersion)`)
  return { kind, doc }
}
