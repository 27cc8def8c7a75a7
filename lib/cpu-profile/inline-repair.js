import { frameKey } from './cpuprofile.js'
import { functionAt, placeTicks } from './inlined.js'

/** @typedef {import('./cpuprofile.js').CallFrame} CallFrame */
/** @typedef {import('./cpuprofile.js').ProfileNode} ProfileNode */
/** @typedef {import('./inlined.js').ScriptExtents} ScriptExtents */

/**
 * @typedef {object} PlacedLine a sampled line of a frame, and whose it is
 * @property {number} line
 * @property {number} ticks
 * @property {CallFrame | null} to the inlined function the line belongs to; null: the frame's own
 */

/**
 * Gives inlined functions their samples back, profile node by node (see
 * inlined.js): what placeTicks needs about the whole profile, gathered once.
 * It needs the callees seen under each frame, and for each function extent
 * the call frame V8 uses for it, so that moved samples join the function's
 * existing frame.
 * @param {ProfileNode[]} nodes
 * @param {Map<string, ScriptExtents>} scripts function extents by URL
 * @param {(id: number) => number} indexOf from nodeIndex
 */
export function inliningRepair (nodes, scripts, indexOf) {
  /** @type {Map<string, Map<string, { url: string, line: number, column: number }>>} */
  const callees = new Map()
  /** @type {Map<import('./inlined.js').FunctionExtent, CallFrame>} */
  const frameOfExtent = new Map()
  for (const node of nodes) {
    const cf = node.callFrame
    const script = scripts.get(cf.url)
    const extent = script && functionAt(script, cf.lineNumber + 1, cf.columnNumber + 1)
    if (extent && !frameOfExtent.has(extent)) frameOfExtent.set(extent, cf)
    const key = frameKey(cf)
    for (const childId of node.children ?? []) {
      const child = nodes[indexOf(childId)]?.callFrame
      if (!child || !child.url) continue
      let set = callees.get(key)
      if (!set) callees.set(key, (set = new Map()))
      set.set(frameKey(child), { url: child.url, line: child.lineNumber + 1, column: child.columnNumber + 1 })
    }
  }
  return {
    /**
     * The node's sampled lines with the function each belongs to, or null
     * when they are all the frame's own.
     * @param {ProfileNode} node
     * @param {string} key the node's frame key
     * @returns {PlacedLine[] | null}
     */
    place (node, key) {
      const cf = node.callFrame
      if (!node.positionTicks || !scripts.has(cf.url)) return null
      const placed = placeTicks(
        { url: cf.url, line: cf.lineNumber + 1, column: cf.columnNumber + 1 },
        node.positionTicks,
        scripts,
        [...(callees.get(key)?.values() ?? [])]
      )
      if (placed.every((p) => p.to === null)) return null
      return placed.map((p) => ({
        line: p.line,
        ticks: p.ticks,
        to: p.to === null ? null : frameOfExtent.get(p.to.fn) ?? syntheticFrame(p.to, /** @type {ScriptExtents} */ (scripts.get(p.to.url)))
      }))
    }
  }
}

/**
 * A call frame for a function V8 never sampled in a frame of its own.
 * @param {import('./inlined.js').Placed} placed
 * @param {ScriptExtents} script
 * @returns {CallFrame}
 */
function syntheticFrame (placed, script) {
  const line = placed.fn.startLine
  return {
    functionName: placed.fn.name,
    scriptId: '',
    url: placed.url,
    lineNumber: line - 1,
    columnNumber: placed.fn.start - script.lineStarts[line - 1]
  }
}
