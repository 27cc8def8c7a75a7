/**
 * DevTools' Comparison view, computed the same way: objects matched by id,
 * per class (constructor) name. An object whose id is in both snapshots
 * under the same class is unchanged; one that is only in the later
 * snapshot is new (its self size counts as allocated), one only in the
 * earlier is deleted (freed). Retained sizes come from each snapshot's
 * dominator tree.
 *
 * @typedef {object} ComparisonRow
 * @property {string} name the class: constructor name, or (string), (closure), (system), …
 * @property {number} newCount # New
 * @property {number} deletedCount # Deleted
 * @property {number} countDelta # Delta
 * @property {number} allocSize Alloc. Size, bytes
 * @property {number} freedSize Freed Size
 * @property {number} sizeDelta Size Delta
 * @property {number} countBefore
 * @property {number} countAfter
 * @property {number} retainedBefore
 * @property {number} retainedAfter
 * @property {number} retainedDelta
 */

/**
 * @param {import('./summary.js').SnapshotSummary} base
 * @param {import('./summary.js').SnapshotSummary} current
 * @returns {{ rows: ComparisonRow[], newMask: Uint8Array, shared: number, reclassed: number }} rows by size delta, largest first;
 *   newMask marks the new objects among `current`'s node ordinals; shared: ids in both, of which reclassed name
 *   objects of another class (almost none in one process: ids of two processes match by chance)
 */
export function compareSummaries (base, current) {
  /** @type {Map<string, ComparisonRow>} */
  const byName = new Map()
  const row = (/** @type {string} */ name) => {
    let r = byName.get(name)
    if (!r) byName.set(name, (r = { name, newCount: 0, deletedCount: 0, countDelta: 0, allocSize: 0, freedSize: 0, sizeDelta: 0, countBefore: 0, countAfter: 0, retainedBefore: 0, retainedAfter: 0, retainedDelta: 0 }))
    return r
  }
  const baseRows = base.classNames.map(row)
  const currentRows = current.classNames.map(row)
  baseRows.forEach((r, c) => {
    r.countBefore = base.counts[c]
    r.retainedBefore = base.retainedSizes[c]
  })
  currentRows.forEach((r, c) => {
    r.countAfter = current.counts[c]
    r.retainedAfter = current.retainedSizes[c]
  })

  const newMask = new Uint8Array(current.classOf.length)
  const deleted = (/** @type {number} */ i) => {
    const r = baseRows[base.classes[i]]
    r.deletedCount++
    r.freedSize += base.selfs[i]
  }
  const added = (/** @type {number} */ j) => {
    const r = currentRows[current.classes[j]]
    r.newCount++
    r.allocSize += current.selfs[j]
    newMask[current.ordinals[j]] = 1
  }
  let i = 0
  let j = 0
  let shared = 0
  let reclassed = 0
  while (i < base.ids.length || j < current.ids.length) {
    if (j >= current.ids.length || (i < base.ids.length && base.ids[i] < current.ids[j])) {
      deleted(i++)
    } else if (i >= base.ids.length || current.ids[j] < base.ids[i]) {
      added(j++)
    } else {
      // The same object; counted as moved when its class changed (an object that changed constructor name).
      shared++
      if (base.classNames[base.classes[i]] !== current.classNames[current.classes[j]]) {
        reclassed++
        deleted(i)
        added(j)
      }
      i++
      j++
    }
  }
  const rows = [...byName.values()]
  for (const r of rows) {
    r.countDelta = r.newCount - r.deletedCount
    r.sizeDelta = r.allocSize - r.freedSize
    r.retainedDelta = r.retainedAfter - r.retainedBefore
  }
  rows.sort((a, b) => b.sizeDelta - a.sizeDelta || b.countDelta - a.countDelta || (a.name < b.name ? -1 : 1))
  return { rows, newMask, shared, reclassed }
}
