import { NO_CLASS, classRetainedSizes } from './snapshot/dominators.js'

/**
 * What the comparison needs of one snapshot, small enough to keep while
 * the next one is read: each object's id, class and self size sorted by
 * id, and per class the count, self size and retained size.
 *
 * Objects with a self size of 0 (the synthetic roots) are left out, as
 * DevTools leaves them out of its Summary and Comparison views.
 *
 * @typedef {object} SnapshotSummary
 * @property {string[]} classNames
 * @property {Float64Array} counts per class
 * @property {Float64Array} selfSizes per class
 * @property {Float64Array} retainedSizes per class
 * @property {Uint32Array | Float64Array} ids the objects' ids, ascending
 * @property {Uint32Array} classes class index, in the same order
 * @property {Uint32Array | Float64Array} selfs self size, in the same order
 * @property {Uint32Array} ordinals node ordinal, in the same order
 * @property {Uint32Array} classOf class index of each node ordinal (NO_CLASS when left out)
 */

/**
 * @param {import('./snapshot/snapshot.js').HeapSnapshot} s
 * @param {import('./snapshot/dominators.js').Dominators} dom
 * @returns {SnapshotSummary}
 */
export function summarize (s, dom) {
  const n = s.nodeCount
  const indexOfKey = new Int32Array(s.strings.count + s.nodeTypeNames.length + 1).fill(-1)
  /** @type {string[]} */
  const classNames = []
  const classOf = new Uint32Array(n)
  const native = s.types.native
  let kept = 0
  for (let v = 0; v < n; v++) {
    if (s.nodeSelf[v] === 0 && s.nodeType[v] !== native) {
      classOf[v] = NO_CLASS
      continue
    }
    const key = s.classKey(v)
    let c = indexOfKey[key]
    if (c === -1) {
      c = indexOfKey[key] = classNames.length
      classNames.push(s.className(key))
    }
    classOf[v] = c
    kept++
  }
  // Two classes may share a name (a user class called "Object"): one row each way.
  const { names, remap } = mergeSameNames(classNames)
  for (let v = 0; v < n; v++) if (classOf[v] !== NO_CLASS) classOf[v] = remap[classOf[v]]

  const counts = new Float64Array(names.length)
  const selfSizes = new Float64Array(names.length)
  const ordinals = new Uint32Array(kept)
  let k = 0
  for (let v = 0; v < n; v++) {
    const c = classOf[v]
    if (c === NO_CLASS) continue
    counts[c]++
    selfSizes[c] += s.nodeSelf[v]
    ordinals[k++] = v
  }
  sortByKey(ordinals, s.nodeId)
  const ids = s.nodeId instanceof Float64Array ? new Float64Array(kept) : new Uint32Array(kept)
  const selfs = s.nodeSelf instanceof Float64Array ? new Float64Array(kept) : new Uint32Array(kept)
  const classes = new Uint32Array(kept)
  for (let i = 0; i < kept; i++) {
    const v = ordinals[i]
    ids[i] = s.nodeId[v]
    selfs[i] = s.nodeSelf[v]
    classes[i] = classOf[v]
  }
  return { classNames: names, counts, selfSizes, retainedSizes: classRetainedSizes(dom, classOf, names.length), ids, classes, selfs, ordinals, classOf }
}

/** @param {string[]} classNames */
function mergeSameNames (classNames) {
  /** @type {Map<string, number>} */
  const byName = new Map()
  const remap = new Uint32Array(classNames.length)
  classNames.forEach((name, i) => {
    let c = byName.get(name)
    if (c === undefined) byName.set(name, (c = byName.size))
    remap[i] = c
  })
  return { names: [...byName.keys()], remap }
}

/**
 * Sorts `order` (node ordinals) by their key, in place: a radix sort for
 * 32-bit keys, which takes a fraction of a comparison sort's time on
 * millions of nodes.
 * @param {Uint32Array} order @param {Uint32Array | Float64Array} keys
 */
function sortByKey (order, keys) {
  if (keys instanceof Float64Array) {
    order.sort((a, b) => keys[a] - keys[b])
    return
  }
  /** @type {Uint32Array} */
  let from = order
  /** @type {Uint32Array} */
  let to = new Uint32Array(order.length)
  for (const shift of [0, 16]) {
    const starts = new Uint32Array(65537)
    for (let i = 0; i < from.length; i++) starts[((keys[from[i]] >>> shift) & 0xffff) + 1]++
    for (let b = 1; b <= 65536; b++) starts[b] += starts[b - 1]
    for (let i = 0; i < from.length; i++) to[starts[(keys[from[i]] >>> shift) & 0xffff]++] = from[i]
    const swap = from
    from = to
    to = swap
  }
  // Two passes: the sorted result is back in `order`.
}

/**
 * The ids of `current` that `base` does not have, ascending.
 * @param {SnapshotSummary} base @param {SnapshotSummary} current
 */
export function newIds (base, current) {
  const out = []
  let i = 0
  for (let j = 0; j < current.ids.length; j++) {
    const id = current.ids[j]
    while (i < base.ids.length && base.ids[i] < id) i++
    if (i >= base.ids.length || base.ids[i] !== id) out.push(id)
  }
  return out
}

/**
 * A mask over `summary`'s node ordinals: 1 for the objects whose id is in `ids`.
 * @param {SnapshotSummary} summary @param {number[]} ids ascending
 * @param {number} nodeCount
 */
export function markIds (summary, ids, nodeCount) {
  const mask = new Uint8Array(nodeCount)
  let i = 0
  for (let j = 0; j < summary.ids.length && i < ids.length; j++) {
    const id = summary.ids[j]
    while (i < ids.length && ids[i] < id) i++
    if (ids[i] === id) mask[summary.ordinals[j]] = 1
  }
  return mask
}
