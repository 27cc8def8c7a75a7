/**
 * The shortest retainer path of every node, as one breadth-first tree from
 * the roots: each node keeps the edge it was first reached by. Weak edges
 * hold nothing and are not followed.
 *
 * The search goes as DevTools' does: first from the user's roots (the
 * global objects the root marks with shortcut edges), so that a path
 * through the app's own objects wins over one through V8's internals; then
 * from the root for the rest, leaving aside until nothing else is left the
 * string table (it holds every internalized string, a path no one can act
 * on) and what dyno's agent keeps under its own symbols (its count of the
 * requests in flight holds them, and the app's objects they reach).
 *
 * @typedef {object} PathTree
 * @property {Uint32Array} parentEdge edge index + 1 that first reached each node (0: a root, or not reached)
 * @property {Uint32Array} distance edges from the roots (0xffffffff: not reached)
 */

const UNREACHED = 0xffffffff
const SIDE_ROOTS = new Set(['(Internalized strings)', '(External strings)', '(Startup object cache)', '(Read-only roots)'])
/** How V8 names a property keyed by one of the agent's symbols (Symbol.for('dyno.…')). */
const AGENT_PROPERTY = '<symbol dyno.'

/**
 * @param {import('./snapshot.js').HeapSnapshot} s
 * @returns {PathTree}
 */
export function shortestPaths (s) {
  const n = s.nodeCount
  const parentEdge = new Uint32Array(n)
  const distance = new Uint32Array(n).fill(UNREACHED)
  const queue = new Uint32Array(n)
  const aside = new Uint8Array(n)
  for (let e = s.firstEdge[0]; e < s.firstEdge[1]; e++) {
    const gcRoots = s.edgeTo[e]
    for (let f = s.firstEdge[gcRoots]; f < s.firstEdge[gcRoots + 1]; f++) {
      if (SIDE_ROOTS.has(s.name(s.edgeTo[f]))) aside[s.edgeTo[f]] = 1
    }
  }
  const agentNames = s.strings.startingWith(AGENT_PROPERTY)
  const property = s.edges.property
  for (let e = 0; e < s.edgeTo.length; e++) {
    if (s.edgeType[e] === property && agentNames[s.edgeName[e]] === 1) aside[s.edgeTo[e]] = 1
  }

  let tail = 0
  distance[0] = 0
  for (let e = s.firstEdge[0]; e < s.firstEdge[1]; e++) {
    if (s.edgeType[e] !== s.edges.shortcut) continue
    const root = s.edgeTo[e]
    if (distance[root] !== UNREACHED) continue
    distance[root] = 1
    parentEdge[root] = e + 1
    queue[tail++] = root
  }
  breadthFirst(s, queue, tail, parentEdge, distance, aside)
  queue[0] = 0
  breadthFirst(s, queue, 1, parentEdge, distance, aside)
  // What only the string table holds.
  tail = 0
  for (let v = 0; v < n; v++) if (aside[v] === 1) queue[tail++] = v
  breadthFirst(s, queue, tail, parentEdge, distance, null)
  return { parentEdge, distance }
}

/**
 * @param {import('./snapshot.js').HeapSnapshot} s
 * @param {Uint32Array} queue holding the start nodes
 * @param {number} tail how many
 * @param {Uint32Array} parentEdge @param {Uint32Array} distance
 * @param {Uint8Array | null} aside nodes whose edges are not followed
 */
function breadthFirst (s, queue, tail, parentEdge, distance, aside) {
  const { firstEdge, edgeTo, edgeType } = s
  const weak = s.edges.weak
  let head = 0
  while (head < tail) {
    const v = queue[head++]
    if (aside !== null && aside[v] === 1) continue
    const d = distance[v] + 1
    for (let e = firstEdge[v]; e < firstEdge[v + 1]; e++) {
      if (edgeType[e] === weak) continue
      const w = edgeTo[e]
      if (distance[w] !== UNREACHED) continue
      distance[w] = d
      parentEdge[w] = e + 1
      queue[tail++] = w
    }
  }
}

/**
 * The node an edge leaves from.
 * @param {import('./snapshot.js').HeapSnapshot} s @param {number} edge
 */
export function edgeSource (s, edge) {
  const first = s.firstEdge
  let lo = 0
  let hi = s.nodeCount - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (first[mid] <= edge) lo = mid
    else hi = mid - 1
  }
  // The last node whose edges start at or before it: one without edges starts where the next does.
  return lo
}

/**
 * The edges from the roots to `node`, root first.
 * @param {import('./snapshot.js').HeapSnapshot} s @param {PathTree} tree @param {number} node
 * @returns {number[]} edge indexes
 */
export function pathTo (s, tree, node) {
  const edges = []
  let v = node
  while (tree.parentEdge[v] !== 0 && edges.length < 1000) {
    const e = tree.parentEdge[v] - 1
    edges.push(e)
    v = edgeSource(s, e)
  }
  return edges.reverse()
}
