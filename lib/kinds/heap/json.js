/**
 * `dyno heap --json` and `dyno heap diff --json`: the comparison rows and
 * the leaks (empty when nothing grows beyond noise), each leak with its
 * path as a list of steps.
 * @param {string} folder
 * @param {import('./types.js').HeapRendered | null} rendered
 * @param {import('../../run-folder.js').RunMeta | null} meta
 */
export function heapJson (folder, rendered, meta) {
  const base = { schemaVersion: 1, folder, end: meta?.end ?? null }
  if (!rendered) return { ...base, comparison: [], leaks: [] }
  if (rendered.kind === 'sampling') return { ...base, allocations: rendered.allocations?.top ?? [] }
  const { analysis, timings } = rendered
  return {
    ...base,
    snapshots: analysis.snapshots.map((s, i) => ({ ...s, ...(timings[i] ?? {}) })),
    comparison: analysis.comparison,
    leaks: analysis.leaks.map((leak) => ({
      constructor: leak.constructor,
      countDelta: leak.countDelta,
      sizeDelta: leak.sizeDelta,
      retainedDelta: leak.retainedDelta,
      holder: leak.holder,
      location: leak.location,
      held: leak.held,
      path: leak.path,
      alsoGrowing: leak.alsoGrowing
    }))
  }
}
