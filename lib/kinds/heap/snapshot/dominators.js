/**
 * The dominator tree of a heap snapshot and the retained size of every
 * node: what would be freed if that node went. Lengauer–Tarjan with path
 * compression, iterative and on typed arrays, in DFS-number space.
 *
 * Which edges hold (as DevTools counts them): weak edges do not; shortcut
 * edges only from the root (there they mark the user's global objects).
 * Nodes that only weak edges reach hang from the root.
 *
 * @typedef {object} Dominators
 * @property {Uint32Array} idom immediate dominator of each node ordinal (the root's is itself)
 * @property {Float64Array} retained retained size of each node ordinal
 * @property {Uint32Array} order node ordinals in dominator-tree preorder
 * @property {Uint32Array} exit for each node ordinal, the preorder position after its subtree
 */

/**
 * @param {import('./snapshot.js').HeapSnapshot} s
 * @returns {Dominators}
 */
export function computeDominators (s) {
  const n = s.nodeCount
  const { dfn, vertex, parent } = depthFirst(s)
  const { predStart, preds } = predecessors(s, dfn)
  const idomDf = lengauerTarjan(n, parent, predStart, preds)

  const idom = new Uint32Array(n)
  const retainedDf = new Float64Array(n + 1)
  for (let k = 1; k <= n; k++) retainedDf[k] = s.nodeSelf[vertex[k]]
  // A dominator has a smaller DFS number than the nodes it dominates.
  for (let k = n; k >= 2; k--) retainedDf[idomDf[k]] += retainedDf[k]
  const retained = new Float64Array(n)
  for (let k = 1; k <= n; k++) {
    const v = vertex[k]
    idom[v] = k === 1 ? v : vertex[idomDf[k]]
    retained[v] = retainedDf[k]
  }
  const { order, exit } = treeOrder(n, idomDf, vertex)
  return { idom, retained, order, exit }
}

/**
 * DFS numbering (1-based) over the edges that hold, from the root; nodes
 * it does not reach become children of the root.
 * @param {import('./snapshot.js').HeapSnapshot} s
 */
function depthFirst (s) {
  const n = s.nodeCount
  const { firstEdge, edgeTo, edgeType } = s
  const weak = s.edges.weak
  const shortcut = s.edges.shortcut
  const dfn = new Uint32Array(n)
  const vertex = new Uint32Array(n + 1)
  const parent = new Uint32Array(n + 1)
  const stackNode = new Uint32Array(n)
  const stackEdge = new Uint32Array(n)
  let next = 0
  /** @param {number} start @param {number} parentNumber */
  const visit = (start, parentNumber) => {
    dfn[start] = ++next
    vertex[next] = start
    parent[next] = parentNumber
    let top = 0
    stackNode[0] = start
    stackEdge[0] = firstEdge[start]
    while (top >= 0) {
      const v = stackNode[top]
      const e = stackEdge[top]
      if (e === firstEdge[v + 1]) {
        top--
        continue
      }
      stackEdge[top] = e + 1
      const type = edgeType[e]
      if (type === weak || (type === shortcut && v !== 0)) continue
      const w = edgeTo[e]
      if (dfn[w] !== 0) continue
      dfn[w] = ++next
      vertex[next] = w
      parent[next] = dfn[v]
      stackNode[++top] = w
      stackEdge[top] = firstEdge[w]
    }
  }
  visit(0, 0)
  for (let v = 1; v < n; v++) if (dfn[v] === 0) visit(v, 1)
  return { dfn, vertex, parent }
}

/**
 * Predecessors of each node over the edges that hold, in DFS numbers.
 * @param {import('./snapshot.js').HeapSnapshot} s
 * @param {Uint32Array} dfn
 */
function predecessors (s, dfn) {
  const n = s.nodeCount
  const { firstEdge, edgeTo, edgeType } = s
  const weak = s.edges.weak
  const shortcut = s.edges.shortcut
  const predStart = new Uint32Array(n + 2)
  for (let v = 0; v < n; v++) {
    for (let e = firstEdge[v]; e < firstEdge[v + 1]; e++) {
      const type = edgeType[e]
      if (type === weak || (type === shortcut && v !== 0)) continue
      predStart[dfn[edgeTo[e]] + 1]++
    }
  }
  for (let k = 1; k <= n + 1; k++) predStart[k] += predStart[k - 1]
  const preds = new Uint32Array(predStart[n + 1])
  const cursor = predStart.slice(0, n + 1)
  for (let v = 0; v < n; v++) {
    const from = dfn[v]
    for (let e = firstEdge[v]; e < firstEdge[v + 1]; e++) {
      const type = edgeType[e]
      if (type === weak || (type === shortcut && v !== 0)) continue
      preds[cursor[dfn[edgeTo[e]]]++] = from
    }
  }
  return { predStart, preds }
}

/**
 * @param {number} n
 * @param {Uint32Array} parent DFS parent of each DFS number (the root's is 0)
 * @param {Uint32Array} predStart @param {Uint32Array} preds
 * @returns {Uint32Array} immediate dominator of each DFS number
 */
function lengauerTarjan (n, parent, predStart, preds) {
  const semi = new Uint32Array(n + 1)
  const idom = new Uint32Array(n + 1)
  const ancestor = new Uint32Array(n + 1)
  const label = new Uint32Array(n + 1)
  const bucketHead = new Uint32Array(n + 1)
  const bucketNext = new Uint32Array(n + 1)
  const path = new Uint32Array(n + 1)
  for (let k = 1; k <= n; k++) {
    semi[k] = k
    label[k] = k
  }
  /** The node of least semidominator on v's path in the forest, compressing it. @param {number} v */
  const evaluate = (v) => {
    if (ancestor[v] === 0) return v
    let top = 0
    let x = v
    while (ancestor[ancestor[x]] !== 0) {
      path[top++] = x
      x = ancestor[x]
    }
    while (top > 0) {
      x = path[--top]
      const a = ancestor[x]
      if (semi[label[a]] < semi[label[x]]) label[x] = label[a]
      ancestor[x] = ancestor[a]
    }
    return label[v]
  }
  for (let w = n; w >= 2; w--) {
    const p = parent[w]
    // The DFS parent is a predecessor too (it is the only one of a node reached through the root alone).
    let s = p < semi[w] ? p : semi[w]
    for (let i = predStart[w]; i < predStart[w + 1]; i++) {
      const u = evaluate(preds[i])
      if (semi[u] < s) s = semi[u]
    }
    semi[w] = s
    bucketNext[w] = bucketHead[s]
    bucketHead[s] = w
    ancestor[w] = p
    for (let v = bucketHead[p]; v !== 0; v = bucketNext[v]) {
      const u = evaluate(v)
      idom[v] = semi[u] < semi[v] ? u : p
    }
    bucketHead[p] = 0
  }
  for (let w = 2; w <= n; w++) if (idom[w] !== semi[w]) idom[w] = idom[idom[w]]
  idom[1] = 1
  return idom
}

/**
 * The dominator tree in preorder, and where each subtree ends.
 * @param {number} n @param {Uint32Array} idomDf @param {Uint32Array} vertex
 */
function treeOrder (n, idomDf, vertex) {
  const childStart = new Uint32Array(n + 2)
  for (let k = 2; k <= n; k++) childStart[idomDf[k] + 1]++
  for (let k = 1; k <= n + 1; k++) childStart[k] += childStart[k - 1]
  const children = new Uint32Array(n)
  const cursor = childStart.slice(0, n + 1)
  for (let k = 2; k <= n; k++) children[cursor[idomDf[k]]++] = k
  const order = new Uint32Array(n)
  const exit = new Uint32Array(n)
  const stack = new Uint32Array(n + 1)
  const nextChild = cursor
  nextChild.set(childStart.subarray(0, n + 1))
  let position = 0
  let top = 0
  stack[0] = 1
  order[position++] = vertex[1]
  while (top >= 0) {
    const k = stack[top]
    if (nextChild[k] < childStart[k + 1]) {
      const child = children[nextChild[k]++]
      order[position++] = vertex[child]
      stack[++top] = child
    } else {
      exit[vertex[k]] = position
      top--
    }
  }
  return { order, exit }
}

/**
 * Retained size of each class: the sum over its members that no other
 * member of the same class dominates (so nothing is counted twice).
 * @param {Dominators} dom
 * @param {Uint32Array} classOf class index of each node ordinal; NO_CLASS for none
 * @param {number} classCount
 * @param {Uint8Array} [only] when given, only nodes marked 1 count as members
 */
export function classRetainedSizes (dom, classOf, classCount, only) {
  const sums = new Float64Array(classCount)
  const lastExit = new Uint32Array(classCount)
  const { order, exit, retained } = dom
  for (let i = 0; i < order.length; i++) {
    const v = order[i]
    const c = classOf[v]
    if (c === NO_CLASS || (only && only[v] === 0)) continue
    if (i < lastExit[c]) continue
    lastExit[c] = exit[v]
    sums[c] += retained[v]
  }
  return sums
}

export const NO_CLASS = 0xffffffff
