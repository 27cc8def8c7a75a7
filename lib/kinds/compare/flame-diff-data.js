import { compareSides } from './flame-diff.js'

/**
 * The differential flamegraph's data: the after version's call tree, each
 * node's width its self time per request after, and beside it the self time
 * per request the same stack took before (`diff.before`). A stack is the
 * same when it is the same functions from the root (see functionIds in
 * flame-diff.js); a stack only before has no place in the after tree, and
 * shows in the functions it named (`diff.functions`).
 */

/** @typedef {import('../../cpu-profile/flame-data.js').FlameData} FlameData */
/** @typedef {import('./flame-diff.js').FlameDiff} FlameDiff */

/**
 * @param {{ before: import('./flame-diff.js').DiffSide, after: import('./flame-diff.js').DiffSide }} input
 * @param {import('./flame-diff.js').DiffOptions} [options]
 * @returns {{ data: FlameData, diff: FlameDiff }} `data.meta.unit` is 'ms per request'; `data.diff` carries the before side
 */
export function flameDiffData (input, options = {}) {
  const { before, after, ids, diff } = compareSides(input, options)
  const { data } = after
  const { nodes } = data
  const count = nodes.frame.length
  const perRequest = (/** @type {number} */ us, /** @type {number} */ requests) => us / 1000 / requests

  // Stacks as chains of function ids; a process's frame adds no step.
  /** @type {Map<string, number>} */
  const stacks = new Map()
  /** @param {Int32Array} stackOf @param {number} parent @param {number} id */
  const stackId = (stackOf, parent, id) => {
    if (id < 0) return stackOf[parent]
    const key = `${stackOf[parent]}:${id}`
    let stack = stacks.get(key)
    if (stack === undefined) stacks.set(key, (stack = stacks.size + 1))
    return stack
  }
  /** @type {Map<number, number>} stack -> before's ms per request */
  const beforeMs = new Map()
  const b = before.data.nodes
  const beforeStack = new Int32Array(b.frame.length)
  for (let i = 1; i < b.frame.length; i++) {
    const stack = (beforeStack[i] = stackId(beforeStack, b.parent[i], ids.before[b.frame[i]]))
    beforeMs.set(stack, (beforeMs.get(stack) ?? 0) + perRequest(before.selfUs[i], before.requests))
  }
  const afterStack = new Int32Array(count)
  const beforeOf = new Array(count).fill(0)
  for (let i = 1; i < count; i++) {
    const stack = (afterStack[i] = stackId(afterStack, nodes.parent[i], ids.after[nodes.frame[i]]))
    // A stack twice in the tree (two processes' frames merged) takes before's time once.
    beforeOf[i] = beforeMs.get(stack) ?? 0
    beforeMs.delete(stack)
  }

  // Widths: after's self time per request, measured.
  const msPerSample = nodes.self.reduce((s, n) => s + n, 0) > 0
    ? perRequest(after.selfUs.reduce((s, us) => s + us, 0), after.requests) / nodes.self.reduce((s, n) => s + n, 0)
    : 0
  for (let i = 0; i < count; i++) nodes.self[i] = perRequest(after.selfUs[i], after.requests)
  for (let i = 0; i < count; i++) nodes.total[i] = nodes.self[i]
  for (let i = count - 1; i > 0; i--) nodes.total[nodes.parent[i]] += nodes.total[i]
  for (const source of Object.values(data.sources)) {
    for (const line of Object.keys(source.lines)) source.lines[line] *= msPerSample
  }
  data.meta.unit = 'ms per request'
  data.meta.samples = nodes.total[0]
  data.diff = { before: beforeOf, requests: diff.requests, total: diff.total, functions: diff.functions }
  return { data, diff }
}
