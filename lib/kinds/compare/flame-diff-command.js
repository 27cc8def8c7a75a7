import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { flameDiffData } from './flame-diff-data.js'
import { renderFlameDiffHtml } from './flame-diff-html.js'
import { FILES } from './folder.js'

/**
 * Writes the CPU differential of two versions into a run folder: the
 * differential flamegraph (flame-diff.html) and every function's change per
 * request (flame-diff.json, the FlameDiff of lib/kinds/compare/flame-diff.js).
 * @param {string} folder
 * @param {{ before: import('./flame-diff.js').DiffSide, after: import('./flame-diff.js').DiffSide }} input
 * @param {import('./flame-diff.js').DiffOptions} [options]
 * @returns {{ diff: import('./flame-diff.js').FlameDiff, html: string, json: string }} the diff, and the files' paths
 */
export function writeFlameDiff (folder, input, options = {}) {
  const { data, diff } = flameDiffData(input, options)
  const html = join(folder, FILES.flameDiffHtml)
  const json = join(folder, FILES.flameDiffJson)
  writeFileSync(html, renderFlameDiffHtml(data))
  writeFileSync(json, JSON.stringify(diff, null, 2) + '\n')
  return { diff, html, json }
}
