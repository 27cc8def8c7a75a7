/**
 * V8's sampling heap profile (`.heapprofile`, as DevTools saves it) in the
 * shape of a CPU profile, so that dyno's flamegraph draws it: each call
 * tree node's "samples" are the bytes allocated there.
 *
 * @typedef {object} SamplingNode
 * @property {import('../../cpu-profile/cpuprofile.js').CallFrame} callFrame
 * @property {number} selfSize bytes allocated by this stack, as V8 estimates from its samples
 * @property {number} id
 * @property {SamplingNode[]} [children]
 *
 * @typedef {{ head: SamplingNode, samples?: { size: number, nodeId: number, ordinal: number }[] }} SamplingHeapProfile
 */

/**
 * Why a value is not a sampling heap profile, or null when it is one.
 * @param {unknown} value
 */
export function whyNotHeapProfile (value) {
  const head = /** @type {any} */ (value)?.head
  if (!head || typeof head !== 'object') return 'it has no "head" node'
  if (!head.callFrame || typeof head.selfSize !== 'number') return 'its "head" is not a call tree node'
  return null
}

/**
 * @param {SamplingHeapProfile} profile
 * @returns {import('../../cpu-profile/cpuprofile.js').CpuProfile}
 */
export function heapProfileAsCpuProfile (profile) {
  /** @type {import('../../cpu-profile/cpuprofile.js').ProfileNode[]} */
  const nodes = []
  // Iterative: allocation stacks can be deep.
  const stack = [profile.head]
  while (stack.length > 0) {
    const node = /** @type {SamplingNode} */ (stack.pop())
    const children = node.children ?? []
    nodes.push({ id: node.id, callFrame: node.callFrame, hitCount: node.selfSize, children: children.map((c) => c.id) })
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i])
  }
  return { nodes, startTime: 0, endTime: 0, samples: [], timeDeltas: [] }
}
