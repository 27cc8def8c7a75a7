import { copyFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { targetError } from '../errors.js'
import { FILES, renderFlameFolder } from './flame-report.js'
import { busySamples, functionsFile, mergedProfile, tiersFile } from './flame-profile.js'
import { observeRun } from './observed-run.js'

/**
 * @typedef {import('./observed-run.js').ObservingOptions & { samplingIntervalUs: number }} FlameOptions
 *
 * @typedef {object} FlameResult
 * @property {string} folder
 * @property {import('../run-folder.js').RunMeta} meta
 * @property {ReturnType<typeof renderFlameFolder> | null} rendered null when the app wrote no profile
 * @property {import('../errors.js').DynoError | null} failure
 */

/**
 * `dyno flame`: the CPU profile of the app, while the load (or the --on-port
 * command, or nothing) runs, rendered as a flamegraph report and the
 * standard profile formats. A failing app still gets its report from what
 * was collected.
 * @param {FlameOptions} options
 * @param {import('./io.js').CommandIO} io
 * @returns {Promise<{ result: FlameResult, exitCode: number }>}
 */
export async function runFlame (options, io) {
  const run = await observeRun('flame', options, io, {
    collectors: { cpu: { samplingIntervalUs: options.samplingIntervalUs } },
    busy: busySamples,
    options: { samplingIntervalUs: options.samplingIntervalUs }
  })
  const profile = mergedProfile(run.chosen)
  const base = { folder: run.folder, meta: run.meta }
  if (profile.nodes.length === 0) {
    // Killed before its first chunk: the run folder keeps what there is.
    const failure = run.failure ?? targetError('DYNO_NO_PROFILE', `the app ${run.end.how} before it wrote any profile`)
    return { result: { ...base, rendered: null, failure }, exitCode: run.failure ? run.exitCode : 1 }
  }
  writeFileSync(join(run.folder, FILES.profile), JSON.stringify(profile))
  const functions = functionsFile(run.chosen)
  const tiers = tiersFile(run.chosen)
  if (functions) copyFileSync(functions, join(run.folder, FILES.functions))
  if (tiers) copyFileSync(tiers, join(run.folder, FILES.tiers))
  const rendered = renderFlameFolder(run.folder, profile)
  return { result: { ...base, rendered, failure: run.failure }, exitCode: run.exitCode }
}
