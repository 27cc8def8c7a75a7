import { pairByRound } from '../../micro/analyze.js'
import { compareRounds } from '../../stats/paired.js'
import { comparisonEntry } from '../../stats/comparison.js'

/**
 * dyno micro --against: each case against its other version, round by
 * round. The two versions of a case ran side by side in every round, so
 * they are paired as two cases of one file are (Student's t-test on the
 * per-round log ratios). Pure.
 *
 * @typedef {import('../../stats/comparison.js').ComparisonEntry & { file: string, rounds: number, rme: { before: number, after: number } }} VersionEntry
 */

/** Rounds it takes to compare a case's two versions: fewer have no interval. */
export const MIN_ROUNDS = 2

/**
 * @param {import('../../micro/versions.js').VersionsReport} report
 * @param {string} file as the comparison names it
 * @param {{ alpha?: number }} [options]
 * @returns {VersionEntry[]} the cases both versions measured
 */
export function compareVersions (report, file, options = {}) {
  const entries = []
  for (const [g, group] of report.groups.after.entries()) {
    const beforeGroup = report.groups.before[g]
    for (const [i, after] of group.cases.entries()) {
      const before = beforeGroup.cases[i]
      if (!before.summary || !after.summary) continue
      const test = compareRounds(...pairByRound(before.summary, after.summary), options)
      // One round has no interval (an interrupted run): no ratio, no verdict.
      if (test.rounds < MIN_ROUNDS) continue
      const name = group.name ? `${group.name} › ${after.name}` : after.name
      entries.push({
        ...comparisonEntry(name, before.summary.opsPerSecond, after.summary.opsPerSecond, test),
        file,
        rounds: test.rounds,
        rme: { before: before.summary.rme, after: after.summary.rme }
      })
    }
  }
  return entries
}
