import { analyzeGroup } from './analyze.js'
import { groupNames, listCases, runRounds } from './runner.js'

/**
 * Two versions of one benchmark file in the same rounds: each round starts
 * a fresh process for every case of each version, and they all take their
 * samples side by side, as the cases of one file do. The ratio of a case's
 * two versions in a round is then free of what that moment of the machine
 * did to both.
 *
 * @typedef {'before' | 'after'} Version
 *
 * @typedef {object} VersionsReport
 * @property {string} file the benchmark file (after's path)
 * @property {import('./analyze.js').MicroFailure & { version: Version } | null} error a version's file could not be loaded
 * @property {Record<Version, import('./analyze.js').GroupReport[]>} groups each version's cases, analyzed as dyno micro analyzes a file
 * @property {Record<Version, string[]>} onlyIn cases declared by one version alone (`group › name`), not run
 */

/**
 * @param {Record<Version, string>} files the benchmark file in each version's tree (absolute)
 * @param {import('./runner.js').MicroSettings} settings
 * @param {import('./runner.js').Hooks} [hooks]
 * @returns {Promise<VersionsReport>}
 */
export async function runVersions (files, settings, hooks = {}) {
  const empty = { groups: { before: [], after: [] }, onlyIn: { before: [], after: [] } }
  const after = await listCases(files.after, settings)
  if ('error' in after) return { file: files.after, error: { version: 'after', ...after.error }, ...empty }
  const before = await listCases(files.before, settings)
  if ('error' in before) return { file: files.after, error: { version: 'before', ...before.error }, ...empty }

  const key = (/** @type {{ group: string, name: string }} */ c) => (c.group ? `${c.group} › ${c.name}` : c.name)
  const inBefore = new Set(before.cases.map(key))
  const inAfter = new Set(after.cases.map(key))
  const shared = after.cases.filter((c) => inBefore.has(key(c)))
  /** @type {(import('./runner.js').FileRuns & { version: Version })[]} */
  const runs = shared.flatMap((c) => /** @type {Version[]} */ (['before', 'after']).map((version) => ({ ...c, version, file: files[version], processes: [], error: null })))
  await runRounds(runs, settings, hooks, files.after)

  /** @param {Version} version */
  const analyzed = (version) => groupNames(runs).map((g) => analyzeGroup(g, runs.filter((r) => r.group === g && r.version === version)))
  return {
    file: files.after,
    error: null,
    groups: { before: analyzed('before'), after: analyzed('after') },
    onlyIn: { before: before.cases.map(key).filter((k) => !inAfter.has(k)), after: after.cases.map(key).filter((k) => !inBefore.has(k)) }
  }
}
