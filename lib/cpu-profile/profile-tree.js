/**
 * A CPU profile's call tree in preorder: the order its nodes are read in to
 * build the flamegraph's tree, a parent always before its children.
 */

/** @typedef {import('./cpuprofile.js').ProfileNode} ProfileNode */

/**
 * Iterative, since stacks can be thousands deep; each node once, even in a
 * malformed profile that lists a node below itself or under two parents.
 * @param {ProfileNode[]} nodes
 * @param {(id: number) => number} indexOf from nodeIndex
 * @returns {{ order: Int32Array, parentAt: Int32Array }} `order[k]`: index in `nodes`
 *   of the k-th node; `parentAt[k]`: the position in `order` of its parent, -1 for the root
 */
export function preorder (nodes, indexOf) {
  const order = new Int32Array(nodes.length)
  const parentAt = new Int32Array(nodes.length)
  if (nodes.length === 0) return { order, parentAt }
  const isChild = new Uint8Array(nodes.length)
  for (const node of nodes) {
    for (const id of node.children ?? []) {
      const at = indexOf(id)
      if (at >= 0) isChild[at] = 1
    }
  }
  const root = Math.max(0, isChild.indexOf(0))
  const visited = new Uint8Array(nodes.length)
  /** pairs: node index, parent position */
  const stack = [root, -1]
  let count = 0
  while (stack.length > 0) {
    const parent = /** @type {number} */ (stack.pop())
    const at = /** @type {number} */ (stack.pop())
    if (visited[at]) continue
    visited[at] = 1
    order[count] = at
    parentAt[count] = parent
    const children = nodes[at].children ?? []
    for (let c = children.length - 1; c >= 0; c--) {
      const child = indexOf(children[c])
      if (child >= 0 && !visited[child]) stack.push(child, count)
    }
    count++
  }
  return { order: order.subarray(0, count), parentAt: parentAt.subarray(0, count) }
}
