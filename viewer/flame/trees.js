/*
 * The two trees the flamegraph draws: the call tree with hidden categories
 * merged into their callers, and the bottom-up (inverted) tree.
 */
import { layoutTree, treeBuilder } from './tree-builder.js'
/** @import { Profile } from './profile.js' */
/** @import { Tree } from './tree-builder.js' */

/** An inverted node narrower than this part of the zoomed one keeps its callers folded in. */
const INVERTED_RESOLUTION = 4000

/**
 * The profile's call tree without the hidden categories: a hidden frame's
 * samples go to its nearest shown caller, and its callees take its place
 * (merged with that caller's other calls to the same function).
 * @param {Profile} profile
 * @param {Uint8Array} hiddenCategory 1 at the index of each hidden category
 * @returns {Tree}
 */
export function buildCallTree (profile, hiddenCategory) {
  const { count, frame, parent, self, inlined, before } = profile.nodes
  const category = profile.frames.category
  if (!hiddenCategory.some(Boolean)) return layoutTree(count, frame, parent, inlined, self, before)
  const builder = treeBuilder(Math.max(count, 1), before !== null)
  const mapped = new Int32Array(count)
  builder.addSelf(0, self[0], before?.[0])
  for (let i = 1; i < count; i++) {
    const into = mapped[parent[i]]
    const f = frame[i]
    const id = hiddenCategory[category[f]] ? into : builder.child(into, f, inlined[i])
    mapped[i] = id
    builder.addSelf(id, self[i], before?.[i])
  }
  return builder.finish()
}

/**
 * Bottom-up: the functions on top of the stack at the root, their callers as
 * children. A full inverted tree can have ten times the nodes of the call
 * tree, so it is built only as deep as it can be seen: along the zoom path
 * `focus` (see pathTo), then below it as long as a node is at least
 * 1/INVERTED_RESOLUTION of the zoomed node. Zooming builds it again.
 * Returns the tree and the zoomed node.
 * @param {Tree} call
 * @param {number[]} focus
 * @returns {{ tree: Tree, zoom: number }}
 */
export function buildInvertedTree (call, focus) {
  const before = call.before
  const builder = treeBuilder(4096, before !== null)
  builder.addSelf(0, call.self[0], before?.[0])
  // Each entry is a call node with samples on top of the stack, and a cursor
  // that climbs its callers one level per inverted depth. In a differential,
  // `olds` is each entry's self on the before side.
  /** @type {number[]} */
  let cursors = []
  /** @type {number[]} */
  let weights = []
  /** @type {number[]} */
  let olds = []
  for (let i = 1; i < call.count; i++) {
    if (call.self[i] || before?.[i]) { cursors.push(i); weights.push(call.self[i]); olds.push(before?.[i] ?? 0) }
  }
  let node = 0
  // The inverted tree's calls are never inlined: a step is its frame.
  for (const f of focus.map(frameOfStep)) {
    /** @type {{ cursors: number[], weights: number[], olds: number[], total: number, old: number }} */
    const kept = { cursors: [], weights: [], olds: [], total: 0, old: 0 }
    let total = 0
    let old = 0
    for (let e = 0; e < cursors.length; e++) {
      total += weights[e]
      old += olds[e]
      const up = node === 0 ? cursors[e] : call.parent[cursors[e]]
      if (up > 0 && call.frame[up] === f) {
        kept.cursors.push(up)
        kept.weights.push(weights[e])
        kept.olds.push(olds[e])
        kept.total += weights[e]
        kept.old += olds[e]
      }
    }
    if (!kept.total) break
    builder.addSelf(node, total - kept.total, old - kept.old)
    node = builder.child(node, f, 0)
    cursors = kept.cursors
    weights = kept.weights
    olds = kept.olds
  }
  let focusTotal = 0
  for (const w of weights) focusTotal += w
  const minTotal = focusTotal / INVERTED_RESOLUTION

  /** @typedef {{ id: number, cursors: number[], weights: number[], olds: number[], atRoot: boolean }} CallerGroup */
  /** @type {CallerGroup[]} */
  const pending = [{ id: node, cursors, weights, olds, atRoot: node === 0 }]
  for (let group = pending.pop(); group; group = pending.pop()) {
    /** @type {Map<number, CallerGroup & { total: number, old: number }>} */
    const callers = new Map()
    for (let e = 0; e < group.cursors.length; e++) {
      const up = group.atRoot ? group.cursors[e] : call.parent[group.cursors[e]]
      if (up <= 0) {
        builder.addSelf(group.id, group.weights[e], group.olds[e])
        continue
      }
      const id = builder.child(group.id, call.frame[up], 0)
      let caller = callers.get(id)
      if (!caller) {
        caller = { id, cursors: [], weights: [], olds: [], total: 0, old: 0, atRoot: false }
        callers.set(id, caller)
      }
      caller.cursors.push(up)
      caller.weights.push(group.weights[e])
      caller.olds.push(group.olds[e])
      caller.total += group.weights[e]
      caller.old += group.olds[e]
    }
    for (const caller of callers.values()) {
      if (caller.total >= minTotal && caller.total > 0) pending.push(caller)
      else builder.addSelf(caller.id, caller.total, caller.old)
    }
  }
  const tree = builder.finish()
  return { tree, zoom: followPath(tree, focus) }
}

/** A step of a path: a frame, and whether it ran inlined. @param {Tree} tree @param {number} node */
const stepOf = (tree, node) => tree.frame[node] * 2 + tree.inlined[node]
/** @param {number} step */
const frameOfStep = (step) => step >> 1

/**
 * Where `node` is, said without the tree's node numbers: the steps from the
 * root down to it. The same path leads to the same calls in another tree of
 * the profile, one with other categories hidden, or the next inverted tree.
 * @param {Tree} tree
 * @param {number} node
 */
export function pathTo (tree, node) {
  return ancestorsOf(tree, node).map((n) => stepOf(tree, n))
}

/**
 * The deepest node reached from the root along `path`.
 * @param {Tree} tree
 * @param {number[]} path
 */
export function followPath (tree, path) {
  let node = 0
  for (const step of path) {
    let next = -1
    for (let c = node + 1; c < tree.end[node] && next < 0; c = tree.end[c]) {
      if (stepOf(tree, c) === step) next = c
    }
    if (next < 0) break
    node = next
  }
  return node
}

/**
 * node's ancestors from the root's first child down to node itself
 * @param {Tree} tree
 * @param {number} node
 */
export function ancestorsOf (tree, node) {
  const path = []
  for (let a = node; a > 0; a = tree.parent[a]) path.push(a)
  return path.reverse()
}
