/*
 * The two trees the flamegraph draws: the call tree with hidden categories
 * merged into their callers, and the bottom-up (inverted) tree.
 */
/* exported buildCallTree, buildInvertedTree, followFrames, ancestorsOf */
/* global treeBuilder, layoutTree */

/** An inverted node narrower than this part of the zoomed one keeps its callers folded in. */
const INVERTED_RESOLUTION = 4000

/**
 * The profile's call tree without the hidden categories: a hidden frame's
 * samples go to its nearest shown caller, and its callees take its place
 * (merged with that caller's other calls to the same function).
 */
function buildCallTree (profile, hiddenCategory) {
  const { count, frame, parent, self, inlined } = profile.nodes
  const category = profile.frames.category
  if (!hiddenCategory.some(Boolean)) return layoutTree(count, frame, parent, inlined, self)
  const builder = treeBuilder(Math.max(count, 1))
  const mapped = new Int32Array(count)
  builder.addSelf(0, self[0])
  for (let i = 1; i < count; i++) {
    const into = mapped[parent[i]]
    const f = frame[i]
    const id = hiddenCategory[category[f]] ? into : builder.child(into, f, inlined[i])
    mapped[i] = id
    builder.addSelf(id, self[i])
  }
  return builder.finish()
}

/**
 * Bottom-up: the functions on top of the stack at the root, their callers as
 * children. A full inverted tree can have ten times the nodes of the call
 * tree, so it is built only as deep as it can be seen: along the zoom path
 * `focus` (frames from the root), then below it as long as a node is at
 * least 1/INVERTED_RESOLUTION of the zoomed node. Zooming builds it again.
 * Returns the tree and the zoomed node.
 */
function buildInvertedTree (call, frameCount, focus) {
  const builder = treeBuilder(4096)
  builder.addSelf(0, call.self[0])
  // Each entry is a call node with samples on top of the stack, and a cursor
  // that climbs its callers one level per inverted depth.
  let cursors = []
  let weights = []
  for (let i = 1; i < call.count; i++) {
    if (call.self[i]) { cursors.push(i); weights.push(call.self[i]) }
  }
  let node = 0
  for (const f of focus) {
    const kept = { cursors: [], weights: [], total: 0 }
    let total = 0
    for (let e = 0; e < cursors.length; e++) {
      total += weights[e]
      const up = node === 0 ? cursors[e] : call.parent[cursors[e]]
      if (up > 0 && call.frame[up] === f) {
        kept.cursors.push(up)
        kept.weights.push(weights[e])
        kept.total += weights[e]
      }
    }
    if (!kept.total) break
    builder.addSelf(node, total - kept.total)
    node = builder.child(node, f, 0)
    cursors = kept.cursors
    weights = kept.weights
  }
  let focusTotal = 0
  for (const w of weights) focusTotal += w
  const minTotal = focusTotal / INVERTED_RESOLUTION

  const pending = [{ id: node, cursors, weights, atRoot: node === 0 }]
  while (pending.length) {
    const group = pending.pop()
    const callers = new Map()
    for (let e = 0; e < group.cursors.length; e++) {
      const up = group.atRoot ? group.cursors[e] : call.parent[group.cursors[e]]
      if (up <= 0) {
        builder.addSelf(group.id, group.weights[e])
        continue
      }
      const id = builder.child(group.id, call.frame[up], 0)
      let caller = callers.get(id)
      if (!caller) {
        caller = { id, cursors: [], weights: [], total: 0, atRoot: false }
        callers.set(id, caller)
      }
      caller.cursors.push(up)
      caller.weights.push(group.weights[e])
      caller.total += group.weights[e]
    }
    for (const caller of callers.values()) {
      if (caller.total >= minTotal) pending.push(caller)
      else builder.addSelf(caller.id, caller.total)
    }
  }
  const tree = builder.finish()
  return { tree, zoom: followFrames(tree, focus) }
}

/** The child of `node` that runs `frame`, or -1. */
function childWithFrame (tree, node, frame) {
  for (let c = node + 1; c < tree.end[node]; c = tree.end[c]) {
    if (tree.frame[c] === frame) return c
  }
  return -1
}

/** The deepest node reached from the root through `frames`. */
function followFrames (tree, frames) {
  let node = 0
  for (const f of frames) {
    const next = childWithFrame(tree, node, f)
    if (next < 0) break
    node = next
  }
  return node
}

/** node's ancestors from the root's first child down to node itself */
function ancestorsOf (tree, node) {
  const path = []
  for (let a = node; a > 0; a = tree.parent[a]) path.push(a)
  return path.reverse()
}
