/*
 * Builds a tree node by node, then lays it out once: nodes in preorder,
 * children widest first, each with its x offset (in samples), depth and the
 * end of its subtree, so that drawing, hit testing and search are plain loops
 * over typed arrays.
 */

/** @typedef {ReturnType<typeof layoutTree>} Tree */

/**
 * Grows a tree; a child merges with its sibling of the same frame and
 * inlining, found through an open-addressing hash table of typed arrays.
 * @param {number} capacity nodes to make room for at first
 * @param {boolean} [withBefore] whether nodes also add up a before side's self (a differential)
 */
export function treeBuilder (capacity, withBefore = false) {
  let frame = new Int32Array(capacity)
  let parent = new Int32Array(capacity)
  let inlined = new Uint8Array(capacity)
  let self = new Float64Array(capacity)
  let before = withBefore ? new Float64Array(capacity) : null
  frame[0] = -1
  parent[0] = -1
  let count = 1
  let slots = 1 << Math.ceil(Math.log2(capacity * 2 + 16))
  let slotParent = new Int32Array(slots).fill(-1)
  let slotKey = new Int32Array(slots)
  let slotNode = new Int32Array(slots)

  /** @param {number} of @param {number} key */
  function slotOf (of, key) {
    let h = Math.imul(of, 0x9e3779b1) ^ key
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
    let i = (h ^ (h >>> 16)) & (slots - 1)
    while (slotParent[i] !== -1 && (slotParent[i] !== of || slotKey[i] !== key)) i = (i + 1) & (slots - 1)
    return i
  }

  function growSlots () {
    const old = { slotParent, slotKey, slotNode }
    slots *= 2
    slotParent = new Int32Array(slots).fill(-1)
    slotKey = new Int32Array(slots)
    slotNode = new Int32Array(slots)
    for (let j = 0; j < old.slotParent.length; j++) {
      if (old.slotParent[j] === -1) continue
      const i = slotOf(old.slotParent[j], old.slotKey[j])
      slotParent[i] = old.slotParent[j]
      slotKey[i] = old.slotKey[j]
      slotNode[i] = old.slotNode[j]
    }
  }

  function growNodes () {
    capacity *= 2
    /** @template {Int32Array | Uint8Array | Float64Array} T @param {T} array @param {T} bigger @returns {T} */
    const copy = (array, bigger) => { bigger.set(array); return bigger }
    frame = copy(frame, new Int32Array(capacity))
    parent = copy(parent, new Int32Array(capacity))
    inlined = copy(inlined, new Uint8Array(capacity))
    self = copy(self, new Float64Array(capacity))
    if (before) before = copy(before, new Float64Array(capacity))
  }

  return {
    /** the child of `of` running frame `f`, added when new @param {number} of @param {number} f @param {number} isInlined 0 or 1 */
    child (of, f, isInlined) {
      const key = f * 2 + isInlined
      let i = slotOf(of, key)
      if (slotParent[i] !== -1) return slotNode[i]
      if (count * 2 > slots) {
        growSlots()
        i = slotOf(of, key)
      }
      if (count === capacity) growNodes()
      frame[count] = f
      parent[count] = of
      inlined[count] = isInlined
      slotParent[i] = of
      slotKey[i] = key
      slotNode[i] = count
      return count++
    },
    /** @param {number} id @param {number} samples @param {number} [beforeSelf] the before side's, in a differential */
    addSelf (id, samples, beforeSelf = 0) {
      self[id] += samples
      if (before) before[id] += beforeSelf
    },
    finish () { return layoutTree(count, frame, parent, inlined, self, before) }
  }
}

/**
 * Orders the nodes in preorder, widest child first, and lays them out.
 * @param {number} count
 * @param {ArrayLike<number>} frame
 * @param {ArrayLike<number>} parent
 * @param {ArrayLike<number>} inlined
 * @param {ArrayLike<number>} self
 * @param {ArrayLike<number> | null} [before] a before side's self per node, in a differential
 */
export function layoutTree (count, frame, parent, inlined, self, before = null) {
  const total = new Float64Array(count)
  for (let i = count - 1; i > 0; i--) {
    total[i] += self[i]
    total[parent[i]] += total[i]
  }
  total[0] += self[0]
  const beforeTotal = before ? new Float64Array(count) : null
  if (before && beforeTotal) {
    for (let i = count - 1; i > 0; i--) {
      beforeTotal[i] += before[i]
      beforeTotal[parent[i]] += beforeTotal[i]
    }
    beforeTotal[0] += before[0]
  }

  const start = new Int32Array(count + 1)
  for (let i = 1; i < count; i++) start[parent[i] + 1]++
  for (let i = 0; i < count; i++) start[i + 1] += start[i]
  const kids = new Int32Array(Math.max(count - 1, 0))
  const cursor = start.slice(0, count)
  for (let i = 1; i < count; i++) kids[cursor[parent[i]]++] = i
  const wider = (/** @type {number} */ a, /** @type {number} */ b) => total[a] > total[b] || (total[a] === total[b] && frame[a] < frame[b])
  for (let p = 0; p < count; p++) {
    const from = start[p]
    const to = start[p + 1]
    if (to - from > 16) {
      kids.subarray(from, to).sort((a, b) => total[b] - total[a] || frame[a] - frame[b])
      continue
    }
    for (let k = from + 1; k < to; k++) {
      const c = kids[k]
      let j = k - 1
      while (j >= from && wider(c, kids[j])) { kids[j + 1] = kids[j]; j-- }
      kids[j + 1] = c
    }
  }

  const order = new Int32Array(count)
  const oldX = new Float64Array(count)
  const oldDepth = new Int32Array(count)
  const stack = new Int32Array(count)
  let top = 0
  let next = 0
  stack[top++] = 0
  while (top > 0) {
    const old = stack[--top]
    order[next++] = old
    let x = oldX[old]
    for (let k = start[old]; k < start[old + 1]; k++) {
      const c = kids[k]
      oldX[c] = x
      oldDepth[c] = oldDepth[old] + 1
      x += total[c]
    }
    for (let k = start[old + 1] - 1; k >= start[old]; k--) stack[top++] = kids[k]
  }

  const position = new Int32Array(count)
  for (let i = 0; i < count; i++) position[order[i]] = i
  const tree = {
    count,
    frame: new Int32Array(count),
    parent: new Int32Array(count),
    inlined: new Uint8Array(count),
    self: new Float64Array(count),
    total: new Float64Array(count),
    x: new Float64Array(count),
    depth: new Int32Array(count),
    end: new Int32Array(count),
    /** the before side's self and total per node, in a differential; null otherwise */
    before: before ? new Float64Array(count) : null,
    beforeTotal: beforeTotal ? new Float64Array(count) : null,
    maxDepth: 0
  }
  for (let i = 0; i < count; i++) {
    const old = order[i]
    tree.frame[i] = frame[old]
    tree.parent[i] = i === 0 ? -1 : position[parent[old]]
    tree.inlined[i] = inlined[old]
    tree.self[i] = self[old]
    if (tree.before && before) tree.before[i] = before[old]
    if (tree.beforeTotal && beforeTotal) tree.beforeTotal[i] = beforeTotal[old]
    tree.total[i] = total[old]
    tree.x[i] = oldX[old]
    tree.depth[i] = oldDepth[old]
    tree.end[i] = i + 1
    if (oldDepth[old] > tree.maxDepth) tree.maxDepth = oldDepth[old]
  }
  for (let i = count - 1; i > 0; i--) {
    const p = tree.parent[i]
    if (tree.end[i] > tree.end[p]) tree.end[p] = tree.end[i]
  }
  return tree
}
