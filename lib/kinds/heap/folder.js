import { writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join } from 'node:path'
import { analyzeHeap } from './analyze.js'
import { dynoError } from '../../errors.js'
import { renderHeapHtml } from './html.js'
import { readMeta, writeJson } from '../../run-folder.js'
import { renderAllocationFolder } from './allocations-folder.js'
import { readSource } from '../../commands/read-source.js'
import { renderHeapRunSummary } from './terminal.js'

/**
 * @typedef {import('./types.js').HeapRunOptions} HeapRunOptions
 */

export const FILES = {
  analysis: 'heap.json',
  html: 'report.html'
}

/**
 * Renders a heap run folder: the analysis of its snapshots (heap.json and
 * report.html), or with --sampling, its allocation flamegraph. `dyno heap`,
 * `dyno heap diff` and `dyno report` all end here.
 * @param {string} folder
 * @param {{ availableBytes?: number, onProgress?: (message: string) => void }} [options]
 * @returns {Promise<import('./types.js').HeapRendered>}
 */
export async function renderFolder (folder, options = {}) {
  const meta = readMeta(folder)
  const own = /** @type {Partial<HeapRunOptions>} */ (meta.options)
  if (own.sampling) {
    if (!own.heapprofile) throw dynoError('DYNO_BAD_RUN_FOLDER.noHeapProfile', { folder })
    return { kind: /** @type {const} */ ('sampling'), meta, allocations: renderAllocationFolder(folder, join(folder, own.heapprofile)) }
  }
  const snapshots = (own.snapshots ?? []).map((file) => isAbsolute(file) ? file : join(folder, file))
  if (snapshots.length < 2) throw dynoError('DYNO_BAD_RUN_FOLDER.fewSnapshots', { folder })
  const analysis = await analyzeHeap(snapshots, { cwd: meta.cwd ?? dirname(folder), readSource, availableBytes: options.availableBytes, onProgress: options.onProgress })
  const timings = own.timings ?? []
  writeJson(folder, FILES.analysis, analysis)
  writeFileSync(join(folder, FILES.html), renderHeapHtml({ title: meta.title, startedAt: meta.startedAt, node: meta.node, analysis, timings }))
  return { kind: /** @type {const} */ ('snapshots'), meta, analysis, timings, html: join(folder, FILES.html) }
}

/**
 * What the terminal shows of a run folder rendered again (`dyno report`).
 * @param {Awaited<ReturnType<typeof renderFolder>>} rendered
 * @param {import('../../run-folder.js').RunMeta} meta
 * @param {import('../../report/style.js').Style} style
 */
export function summarize (rendered, meta, style) {
  return renderHeapRunSummary(rendered, meta.end, style)
}
