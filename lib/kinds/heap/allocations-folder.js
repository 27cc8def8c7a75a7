import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { heapProfileAsCpuProfile, whyNotHeapProfile } from './allocation-profile.js'
import { buildFlameData } from '../../cpu-profile/build-flame-data.js'
import { hotFunctions } from '../../cpu-profile/hot-functions.js'
import { dynoError } from '../../errors.js'
import { renderFlameHtml } from '../flame/html.js'
import { readMeta } from '../../run-folder.js'
import { runFacts } from '../../report/run-facts.js'

export const ALLOCATIONS_HTML = 'allocations.html'

/**
 * The allocation flamegraph of a `dyno heap --sampling` run: V8's sampling
 * heap profile drawn by the flamegraph report, bytes where a CPU profile
 * has samples.
 * @param {string} folder
 * @param {string} path the .heapprofile
 * @returns {import('./types.js').AllocationsRendered}
 */
export function renderAllocationFolder (folder, path) {
  const meta = readMeta(folder)
  let profile
  try {
    profile = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    throw dynoError('DYNO_BAD_RUN_FOLDER.unreadable', { path, why: /** @type {Error} */ (err).message })
  }
  const why = whyNotHeapProfile(profile)
  if (why) throw dynoError('DYNO_BAD_RUN_FOLDER.notHeapProfile', { path, why })
  const { data } = buildFlameData(heapProfileAsCpuProfile(profile), {
    title: `${meta.title} (allocations)`,
    cwd: meta.cwd ?? dirname(folder),
    meta: { ...runFacts(meta), load: null }
  })
  data.meta.unit = 'bytes'
  if (meta.loadWindow) data.meta.durationMs = meta.loadWindow.endMs - meta.loadWindow.startMs
  const html = join(folder, ALLOCATIONS_HTML)
  writeFileSync(html, renderFlameHtml(data))
  const top = hotFunctions(data, 10).map((f) => ({ name: f.name, location: f.location, category: f.category, bytes: f.selfSamples, percent: f.selfPercent }))
  return { data, html, top, bytes: data.meta.samples }
}
