import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { compareLoadRounds } from './load-rounds.js'
import { dynoError } from '../../errors.js'
import { slowerGate } from '../../stats/comparison.js'
import { renderLoadComparison } from './load-terminal.js'

export const FILES = {
  result: 'compare.json',
  rounds: 'rounds.json',
  flameDiffHtml: 'flame-diff.html',
  flameDiffJson: 'flame-diff.json'
}

/**
 * A `dyno compare --load` run folder rendered again: the rounds' figures
 * from its compare.json, compared anew (so a newer dyno judges them its
 * way), and the CPU differential as it was written.
 * @param {string} folder
 * @returns {import('./types.js').CompareLoadResult}
 */
export function renderFolder (folder) {
  let saved
  try {
    saved = JSON.parse(readFileSync(join(folder, FILES.result), 'utf8'))
  } catch {
    throw dynoError('DYNO_BAD_RUN_FOLDER.noCompare', { folder })
  }
  if (!saved || !Array.isArray(saved.rounds) || !saved.versions || !saved.settings) {
    throw dynoError('DYNO_BAD_RUN_FOLDER.notCompare', { path: join(folder, FILES.result) })
  }
  const { comparisons, totals } = compareLoadRounds(saved.rounds, { sequential: saved.settings.rounds === null })
  const requests = comparisons.find((c) => c.name === 'requests')
  const percent = saved.settings.failIfSlower
  const gate = typeof percent === 'number' && requests ? slowerGate([requests], percent) : null
  // The folder may have moved since: its files are named where it is now.
  const flame = saved.flame && typeof saved.flame.html === 'string' ? { ...saved.flame, html: join(folder, basename(saved.flame.html)) } : saved.flame ?? null
  return { ...saved, folder, comparisons, totals, gate, flame, failure: null }
}

/**
 * What the terminal shows of a run folder rendered again (`dyno report`).
 * @param {Awaited<ReturnType<typeof renderFolder>>} rendered
 * @param {import('../../run-folder.js').RunMeta} meta
 * @param {import('../../report/style.js').Style} style
 */
export function summarize (rendered, meta, style) {
  return renderLoadComparison(rendered, { style })
}
