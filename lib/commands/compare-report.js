import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { compareLoadRounds } from '../compare/load-rounds.js'
import { usageError } from '../errors.js'

/**
 * A `dyno compare --load` run folder rendered again: the rounds' figures
 * from its compare.json, compared anew (so a newer dyno judges them its
 * way), and the CPU differential as it was written.
 * @param {string} folder
 * @returns {import('./compare-load.js').CompareLoadResult}
 */
export function renderCompareFolder (folder) {
  let saved
  try {
    saved = JSON.parse(readFileSync(join(folder, 'compare.json'), 'utf8'))
  } catch {
    throw usageError('DYNO_BAD_RUN_FOLDER', `${folder} holds no readable compare.json: give the folder dyno compare --load wrote, not one of its before-N or after-N folders`)
  }
  if (!saved || !Array.isArray(saved.rounds) || !saved.versions || !saved.settings) {
    throw usageError('DYNO_BAD_RUN_FOLDER', `${join(folder, 'compare.json')} is not what dyno compare --load writes`)
  }
  const { comparisons, totals } = compareLoadRounds(saved.rounds)
  // The folder may have moved since: its files are named where it is now.
  const flame = saved.flame && typeof saved.flame.html === 'string' ? { ...saved.flame, html: join(folder, basename(saved.flame.html)) } : saved.flame ?? null
  return { ...saved, folder, comparisons, totals, flame, failure: null }
}
