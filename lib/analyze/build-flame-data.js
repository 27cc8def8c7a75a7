import { agentCodeTest } from './agent-code.js'
import { appSources } from './app-sources.js'
import { CallTree } from './call-tree.js'
import { FrameTable } from './frame-table.js'
import { inliningRepair } from './inline-repair.js'
import { nodeIndex, samplesPerNode } from './profile-samples.js'
import { preorder } from './profile-tree.js'

/** @typedef {import('./cpuprofile.js').CpuProfile} CpuProfile */
/** @typedef {import('./cpuprofile.js').ProfileNode} ProfileNode */
/** @typedef {import('./flame-data.js').FlameData} FlameData */
/** @typedef {import('./flame-data.js').FlameMeta} FlameMeta */

/**
 * What V8 said about each function's optimization, by frame key.
 * @typedef {object} TierInfo
 * @property {Map<string, number>} tiers frame key -> index into TIERS
 */

/**
 * What the exports need beyond FlameData, by node index of `data.nodes`.
 * @typedef {object} NodeDetail
 * @property {number[]} selfUs how long the node's own samples lasted, measured
 * @property {Map<number, Map<number, number>>} lines node -> 1-based source line -> samples
 */

/**
 * Turns a (merged) CPU profile into FlameData: the call tree without idle
 * time and without dyno's own agent, frames merged per function, inlined
 * functions given their samples back, and the app's sampled source. Pure:
 * file reads come in through `readSource`.
 * @param {CpuProfile} profile
 * @param {object} options
 * @param {string} options.title
 * @param {string} options.cwd the app's folder: app file paths are shown relative to it
 * @param {Partial<FlameMeta>} [options.meta]
 * @param {TierInfo | null} [options.tierInfo]
 * @param {(path: string) => string | null} [options.readSource] the text of an app file, or null
 * @param {Map<string, import('./inlined.js').ScriptExtents>} [options.scripts] function extents by URL,
 *   to give inlined functions their samples back (see inlined.js)
 * @returns {{ data: FlameData, detail: NodeDetail }}
 */
export function buildFlameData (profile, { title, cwd, meta = {}, tierInfo = null, readSource = () => null, scripts = new Map() }) {
  const { nodes } = profile
  const indexOf = nodeIndex(nodes)
  const samples = samplesPerNode(profile, indexOf)
  const { order, parentAt } = preorder(nodes, indexOf)
  const kept = keptSamples(nodes, order, parentAt, samples.count)
  const repair = scripts.size > 0 ? inliningRepair(nodes, scripts, indexOf) : null
  const frames = new FrameTable({ cwd, tiers: tierInfo?.tiers ?? null })
  const tree = new CallTree()

  /** tree node of each position in `order` */
  const treeNode = new Int32Array(order.length)
  for (let k = 1; k < order.length; k++) {
    if (kept.subtree[k] === 0) continue
    const at = order[k]
    const node = nodes[at]
    const frame = frames.of(node.callFrame)
    const index = (treeNode[k] = tree.child(treeNode[parentAt[k]], frame))
    const placed = repair && samples.count[at] > 0 ? repair.place(node, frames.keys[frame]) : null
    if (placed) addPlaced(tree, frames, index, placed, samples.count[at], samples.timeUs[at])
    else tree.addSelf(index, samples.count[at], samples.timeUs[at], node.positionTicks)
  }
  tree.sumTotals()

  const durationMs = (profile.endTime - profile.startTime) / 1000
  const sampleCount = (profile.samples ?? []).length
  /** @type {FlameData} */
  const data = {
    schemaVersion: 1,
    meta: {
      title,
      startedAt: meta.startedAt ?? new Date().toISOString(),
      durationMs,
      samples: tree.nodes.total[0],
      idleSamples: kept.idle,
      agentSamples: kept.agent,
      intervalUs: sampleCount > 0 ? Math.round((durationMs * 1000) / sampleCount) : 0,
      node: meta.node ?? null,
      v8: meta.v8 ?? null,
      tiersKnown: tierInfo !== null,
      exit: meta.exit ?? null,
      ...(meta.load !== undefined ? { load: meta.load } : {}),
      ...(meta.warnings?.length ? { warnings: meta.warnings } : {})
    },
    strings: frames.strings.strings,
    frames: frames.columns,
    nodes: tree.nodes,
    sources: appSources(tree, frames, readSource)
  }
  return { data, detail: { selfUs: tree.selfUs, lines: tree.lines } }
}

/**
 * Which nodes the tree keeps: not (idle), not dyno's agent code nor what it
 * called, and only nodes with samples in their subtree.
 * @param {ProfileNode[]} nodes
 * @param {Int32Array} order @param {Int32Array} parentAt from preorder
 * @param {Float64Array} count samples per node index
 * @returns {{ subtree: Float64Array, idle: number, agent: number }} `subtree`: kept samples under each position, 0 for a node left out
 */
function keptSamples (nodes, order, parentAt, count) {
  const isAgentCode = agentCodeTest()
  const subtree = new Float64Array(order.length)
  const IDLE = 1
  const AGENT = 2
  /** why a position is left out, inherited by what it called */
  const left = new Uint8Array(order.length)
  let idle = 0
  let agent = 0
  for (let k = 1; k < order.length; k++) {
    const cf = nodes[order[k]].callFrame
    const samples = count[order[k]]
    left[k] = left[parentAt[k]] || (cf.functionName === '(idle)' && cf.url === '' ? IDLE : isAgentCode(cf.url) ? AGENT : 0)
    if (left[k] === IDLE) idle += samples
    else if (left[k] === AGENT) agent += samples
    else subtree[k] = samples
  }
  for (let k = order.length - 1; k > 0; k--) subtree[parentAt[k]] += subtree[k]
  return { subtree, idle, agent }
}

/**
 * A node's samples, its sampled lines handed to the functions they belong
 * to: the lines of an inlined callee go to a child node of their own,
 * marked inlined.
 * @param {CallTree} tree @param {FrameTable} frames @param {number} index the node
 * @param {import('./inline-repair.js').PlacedLine[]} placed
 * @param {number} samples @param {number} us
 */
function addPlaced (tree, frames, index, placed, samples, us) {
  const usPerSample = us / samples
  let own = samples
  /** @type {{ line: number, ticks: number }[]} */
  const ownLines = []
  for (const p of placed) {
    if (p.to === null) {
      ownLines.push(p)
      continue
    }
    const child = tree.child(index, frames.of(p.to))
    tree.nodes.inlined[child] = 1
    tree.addSelf(child, p.ticks, p.ticks * usPerSample, [p])
    own -= p.ticks
  }
  tree.addSelf(index, own, own * usPerSample, ownLines)
}
