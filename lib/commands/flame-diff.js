import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { flameDiffData } from '../analyze/flame-diff-data.js'
import { renderFlameDiffHtml } from '../report/flame-diff-html.js'

export const FLAME_DIFF_FILES = { html: 'flame-diff.html', json: 'flame-diff.json' }

/**
 * Writes the CPU differential of two versions into a run folder: the
 * differential flamegraph (flame-diff.html) and every function's change per
 * request (flame-diff.json, the FlameDiff of lib/analyze/flame-diff.js).
 * @param {string} folder
 * @param {{ before: import('../analyze/flame-diff.js').DiffSide, after: import('../analyze/flame-diff.js').DiffSide }} input
 * @param {import('../analyze/flame-diff.js').DiffOptions} [options]
 * @returns {{ diff: import('../analyze/flame-diff.js').FlameDiff, html: string, json: string }} the diff, and the files' paths
 */
export function writeFlameDiff (folder, input, options = {}) {
  const { data, diff } = flameDiffData(input, options)
  const html = join(folder, FLAME_DIFF_FILES.html)
  const json = join(folder, FLAME_DIFF_FILES.json)
  writeFileSync(html, renderFlameDiffHtml(data))
  writeFileSync(json, JSON.stringify(diff, null, 2) + '\n')
  return { diff, html, json }
}
