/**
 * The flamegraph's call tree as it is built: nodes added in preorder, one
 * per distinct frame under each parent (siblings V8 kept apart are merged),
 * with the samples each took at the top of the stack, how long those
 * lasted and on which source lines.
 */
export class CallTree {
  constructor () {
    /** @type {import('./flame-data.js').FlameNodes} node 0 is the root */
    this.nodes = { frame: [-1], parent: [-1], self: [0], total: [0], inlined: [0] }
    /** @type {number[]} µs of the node's own samples, by node */
    this.selfUs = [0]
    /** @type {Map<number, Map<number, number>>} node -> 1-based line -> samples */
    this.lines = new Map()
    /** @type {Map<number, number>} parent * 2^24 + frame -> node */
    this.children = new Map()
  }

  /**
   * The child of `parent` for `frame`, made when missing.
   * @param {number} parent @param {number} frame
   */
  child (parent, frame) {
    const key = parent * 16777216 + frame
    let index = this.children.get(key)
    if (index === undefined) {
      const { nodes } = this
      index = nodes.frame.push(frame) - 1
      nodes.parent.push(parent)
      nodes.self.push(0)
      nodes.total.push(0)
      nodes.inlined.push(0)
      this.selfUs.push(0)
      this.children.set(key, index)
    }
    return index
  }

  /**
   * Samples taken with `node` on top of the stack.
   * @param {number} node @param {number} samples @param {number} us how long they lasted
   * @param {{ line: number, ticks: number }[]} [lines] the samples V8 placed on a source line
   */
  addSelf (node, samples, us, lines) {
    this.nodes.self[node] += samples
    this.selfUs[node] += us
    if (!lines || lines.length === 0) return
    let own = this.lines.get(node)
    if (!own) this.lines.set(node, (own = new Map()))
    for (const { line, ticks } of lines) own.set(line, (own.get(line) ?? 0) + ticks)
  }

  /** Preorder puts every child after its parent: one backward pass sums totals. */
  sumTotals () {
    const { self, total, parent } = this.nodes
    for (let i = 0; i < self.length; i++) total[i] = self[i]
    for (let i = total.length - 1; i > 0; i--) total[parent[i]] += total[i]
  }
}
