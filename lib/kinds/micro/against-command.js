import { copyFile, mkdir } from 'node:fs/promises'
import { dirname, isAbsolute, join, relative } from 'node:path'
import { checkout } from '../../checkout.js'
import { COMPARISON_SCHEMA_VERSION, slowerGate } from '../../stats/comparison.js'
import { compareVersions } from './versions.js'
import { dynoError, exitCodeOf } from '../../errors.js'
import { runVersions } from '../../micro/versions.js'
import { benchmarkFile, caseFailures, failuresExitCode, interruptedExitCode } from './command.js'

/**
 * `dyno micro <file> --against <ref>`: the benchmark file runs against the
 * working tree and against a temporary checkout of `ref`, both versions of
 * each case in the same rounds, and each case is compared with its other
 * version. The working tree's benchmark file serves both versions (copied
 * to the same place in the checkout), so it may be new or changed: each
 * version's code is what its relative imports find. The checkout is removed
 * however the run ends.
 *
 * @typedef {import('./types.js').AgainstOptions} AgainstOptions
 * @typedef {import('./types.js').AgainstResult} AgainstResult
 */

/**
 * @param {AgainstOptions} options
 * @param {import('../../commands/io.js').CommandIO} io
 * @returns {Promise<{ result: AgainstResult, exitCode: number }>}
 */
export async function runMicroAgainst (options, io) {
  if (options.files.length === 0) throw dynoError('DYNO_NO_FILE')
  const files = []
  for (const path of options.files) files.push(await benchmarkFile(path, io.cwd))
  const startedAt = new Date()
  const tree = await checkout(io.cwd, options.against)
  try {
    io.onEvent?.({ type: 'checkout', ref: tree.ref, commit: tree.commit })
    const inRepo = files.map((file) => {
      const inside = relative(tree.root, file)
      if (inside.startsWith('..') || isAbsolute(inside)) {
        throw dynoError('DYNO_BAD_FILE.outsideRepository', { file: relative(io.cwd, file), root: tree.root })
      }
      return inside
    })
    /** @type {AgainstResult['files']} */
    const reports = []
    for (const [i, file] of files.entries()) {
      if (io.signal?.aborted) break
      const copy = join(tree.dir, inRepo[i])
      await mkdir(dirname(copy), { recursive: true })
      await copyFile(file, copy)
      const report = await runVersions({ before: copy, after: file }, options.settings, {
        signal: io.signal,
        onProgress: io.onEvent && ((progress) => io.onEvent?.({ type: 'micro-round', progress }))
      })
      reports.push({ ...report, file: relative(io.cwd, file) })
    }
    const comparisons = reports.flatMap((r) => compareVersions(r, r.file))
    const failures = reports.flatMap((r) => failuresOf(r, tree.ref))
    // ops/sec: higher is faster.
    const gate = typeof options.failIfSlower === 'number' ? slowerGate(comparisons, options.failIfSlower) : null
    /** @type {AgainstResult} */
    const result = {
      schemaVersion: COMPARISON_SCHEMA_VERSION,
      kind: 'dyno-micro-against',
      before: { ref: tree.ref, commit: tree.commit },
      after: { tree: tree.root },
      startedAt: startedAt.toISOString(),
      node: process.version,
      settings: options.settings,
      comparisons,
      files: reports,
      failures,
      gate
    }
    const exitCode = io.signal?.aborted ? interruptedExitCode(io.signal) : failures.length > 0 ? failuresExitCode(failures) : gate?.failed ? exitCodeOf('DYNO_SLOWER') : 0
    return { result, exitCode }
  } finally {
    await tree.remove()
  }
}

/**
 * @param {AgainstResult['files'][number]} report
 * @param {string} ref
 * @returns {import('./types.js').Failure[]}
 */
function failuresOf (report, ref) {
  const versionName = (/** @type {'before' | 'after'} */ v) => (v === 'before' ? ` (at ${ref})` : ' (working tree)')
  if (report.error) return [{ file: report.file + versionName(report.error.version), case: null, stage: report.error.stage, code: report.error.code, message: report.error.message }]
  return caseFailures(report.file + versionName('before'), report.groups.before).concat(caseFailures(report.file + versionName('after'), report.groups.after))
}
