import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { usageError } from '../errors.js'
import { compareResults, resultKind } from '../micro/compare.js'
import { renderComparison } from '../report/compare-terminal.js'
import { createStyle } from '../report/style.js'
import { parseFlags } from './flags.js'

/** @type {import('./flags.js').Command} */
export const command = {
  name: 'compare',
  usage: 'dyno compare [flags] <a.json> <b.json>',
  summary: 'Is b faster, slower, or indistinguishable from a? Case by case, with 95% confidence intervals.',
  details: [
    'Takes two results of dyno micro --json (or --save), or two of dyno load --json. Micro results are',
    'compared case by case on their per-process ops/sec; load results on their per-second request',
    'rates. Both with Welch\'s t-test and a 95% interval for the ratio b/a.'
  ].join('\n'),
  flags: [
    { name: 'json', short: 'j', type: 'boolean', description: 'print the comparison as JSON' }
  ],
  examples: [
    'dyno compare .dyno/micro/before.json .dyno/micro/after.json',
    'dyno load --json http://127.0.0.1:3000/ > a.json; (change the server); dyno load --json http://127.0.0.1:3000/ > b.json; dyno compare a.json b.json'
  ]
}

/**
 * @param {string[]} argv
 * @param {import('./io.js').IO} io
 */
export async function run (argv, io) {
  const { values, positionals } = parseFlags(command, argv)
  if (positionals.length !== 2) {
    throw usageError('DYNO_BAD_FILE', `dyno compare takes two result files, a then b; got ${positionals.length}`)
  }
  const a = await readResult(positionals[0], io.cwd)
  const b = await readResult(positionals[1], io.cwd)
  if (a.kind !== b.kind) {
    throw usageError('DYNO_MISMATCH', `${positionals[0]} is a ${a.kind} result and ${positionals[1]} a ${b.kind} result; compare two of a kind`)
  }
  const comparison = compareResults(a, b)
  if (values.json) io.stdout.write(JSON.stringify(comparison, null, 2) + '\n')
  else io.stdout.write(renderComparison(comparison, { style: createStyle(io.stdout), names: /** @type {[string, string]} */ (positionals) }))
  return 0
}

/**
 * @param {string} path @param {string} cwd
 */
async function readResult (path, cwd) {
  let text
  try {
    text = await readFile(resolve(cwd, path), 'utf8')
  } catch (err) {
    throw usageError('DYNO_BAD_FILE', `cannot read ${path}: ${/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT' ? 'no such file' : /** @type {Error} */ (err).message}`)
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
