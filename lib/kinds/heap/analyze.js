import { basename } from 'node:path'
import { compareSummaries } from './compare.js'
import { computeDominators } from './snapshot/dominators.js'
import { growingClasses, namedLeaks } from './leaks.js'
import { readSnapshot } from './snapshot/read-snapshot.js'
import { classRetainers } from './snapshot/retainers.js'
import { shortestPaths } from './snapshot/shortest-paths.js'
import { snapshotSources } from './sources.js'
import { markIds, newIds, summarize } from './summary.js'
import { dynoError } from '../../errors.js'

/** Classes whose objects and paths are detailed (for the report), besides the growing ones. */
const DETAILED = 20
/** Ids in common below which two snapshots say nothing of whether one process wrote them. */
const MIN_SHARED_IDS = 1000
/** One process's snapshots: about 1 in 40,000 shared ids change class; two processes': most. */
const MAX_RECLASSED_SHARE = 0.05

/**
 * What grew between heap snapshots and what keeps it alive.
 *
 * @typedef {object} HeapAnalysis
 * @property {1} schemaVersion
 * @property {{ file: string, nodes: number, edges: number, size: number }[]} snapshots in the order compared
 * @property {(import('./compare.js').ComparisonRow & { counts: number[] })[]} comparison first snapshot against the
 *   last, by size delta; `counts` is the class's count in every snapshot
 * @property {string[]} growing classes that grew beyond noise in every interval
 * @property {import('./leaks.js').Leak[]} leaks empty when nothing grows beyond noise
 * @property {import('./snapshot/retainers.js').ClassRetainers[]} details sample objects and retainer paths of the top classes
 * @property {'new' | 'survivors'} candidates which objects the paths are of: new in the last snapshot, or (with
 *   three or more) created between the first two and still alive in the last
 */

/**
 * Reads the snapshots one after the other, keeping of each but the last only
 * what the comparison needs, so memory holds one snapshot at a time.
 * @param {string[]} paths two or more, oldest first
 * @param {{ cwd: string, readSource: (path: string) => string | null, availableBytes?: number, onProgress?: (message: string) => void }} options
 * @returns {Promise<HeapAnalysis>}
 */
export async function analyzeHeap (paths, options) {
  /** @type {import('./summary.js').SnapshotSummary[]} */
  const summaries = []
  /** @type {HeapAnalysis['snapshots']} */
  const snapshots = []
  let reserved = 0
  for (let i = 0; i < paths.length - 1; i++) {
    options.onProgress?.(`reading ${basename(paths[i])}`)
    const s = await readSnapshot(paths[i], { availableBytes: options.availableBytes, reservedBytes: reserved })
    const summary = summarize(s, computeDominators(s))
    // What later steps need of an earlier snapshot: ids, classes, sizes.
    summaries.push({ ...summary, ordinals: new Uint32Array(0), classOf: new Uint32Array(0) })
    snapshots.push(describe(paths[i], s))
    reserved += summary.ids.byteLength + summary.classes.byteLength + summary.selfs.byteLength
  }
  const lastPath = /** @type {string} */ (paths.at(-1))
  options.onProgress?.(`reading ${basename(lastPath)}`)
  const s = await readSnapshot(lastPath, { availableBytes: options.availableBytes, reservedBytes: reserved })
  snapshots.push(describe(lastPath, s))
  const dom = computeDominators(s)
  const last = summarize(s, dom)
  const first = summaries[0]
  const { rows, newMask, shared, reclassed } = compareSummaries(first, last)
  if (shared >= MIN_SHARED_IDS && reclassed > shared * MAX_RECLASSED_SHARE) {
    const share = Math.round(reclassed / shared * 100)
    throw dynoError('DYNO_NOT_ONE_PROCESS', { first: basename(paths[0]), last: basename(lastPath), share })
  }

  // Objects made in the first round and still alive after the last stand out (as memlab finds them).
  const mask = summaries.length >= 2 ? markIds(last, newIds(summaries[0], summaries[1]), s.nodeCount) : newMask
  const countsByClass = new Map()
  for (const summary of [...summaries, last]) {
    const index = new Map(summary.classNames.map((name, c) => [name, c]))
    for (const row of rows) {
      const c = index.get(row.name)
      let counts = countsByClass.get(row.name)
      if (!counts) countsByClass.set(row.name, (counts = []))
      counts.push(c === undefined ? 0 : summary.counts[c])
    }
  }
  const growing = growingClasses(rows, countsByClass)
  const detailed = [...new Set([...growing, ...rows.filter((r) => r.newCount > 0).slice(0, DETAILED).map((r) => r.name)])]
  options.onProgress?.('finding retainer paths')
  const tree = shortestPaths(s)
  const sources = snapshotSources(s, options)
  const details = classRetainers(s, last, dom, tree, mask, detailed, sources)
  const leaks = namedLeaks(rows, details.filter((d) => growing.includes(d.name)))
  return {
    schemaVersion: 1,
    snapshots,
    comparison: rows.map((row) => ({ ...row, counts: countsByClass.get(row.name) ?? [] })),
    growing,
    leaks,
    details,
    candidates: summaries.length >= 2 ? 'survivors' : 'new'
  }
}

/** @param {string} path @param {import('./snapshot/snapshot.js').HeapSnapshot} s */
function describe (path, s) {
  let size = 0
  for (let v = 0; v < s.nodeCount; v++) size += s.nodeSelf[v]
  return { file: path, nodes: s.nodeCount, edges: s.edgeCount, size }
}
