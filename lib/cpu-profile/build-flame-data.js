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
 * A profile of one process or thread of the app, and what to call it.
 * @typedef {{ label: string, profile: CpuProfile }} ProfileUnit
 */

/**
 * Turns a (merged) CPU profile into FlameData: the call tree without idle
 * time and without dyno's own agent, frames merged per function, inlined
 * functions given their samples back, positions shown as written where
 * scripts have source maps, and the app's sampled source. Several profiles
 * (the processes and threads of one app) make one tree, each under a frame
 * of its own that the report can hide to merge them. Pure: file reads come
 * in through `readSource`.
 * @param {CpuProfile | ProfileUnit[]} profiles
 * @param {object} options
 * @param {string} options.title
 * @param {string} options.cwd the app's folder: app file paths are shown relative to it
 * @param {Partial<FlameMeta>} [options.meta]
 * @param {TierInfo | null} [options.tierInfo]
 * @param {(path: string) => string | null} [options.readSource] the text of an app file, or null
 * @param {Map<string, import('./inlined.js').ScriptExtents>} [options.scripts] function extents by URL,
 *   to give inlined functions their samples back (see inlined.js)
 * @param {import('./source-maps.js').SourceMapper | null} [options.mapper] the scripts' source maps
 * @returns {{ data: FlameData, detail: NodeDetail }}
 */
export function buildFlameData (profiles, { title, cwd, meta = {}, tierInfo = null, readSource = () => null, scripts = new Map(), mapper = null }) {
  const units = Array.isArray(profiles) ? profiles : [{ label: '', profile: profiles }]
  const frames = new FrameTable({ cwd, tiers: tierInfo?.tiers ?? null, mapper })
  const tree = new CallTree()
  let idle = 0
  let agent = 0
  let durationMs = 0
  let sampleCount = 0
  /** @type {{ label: string, samples: number }[]} */
  const shares = []
  for (const { label, profile } of units) {
    const under = units.length > 1 ? tree.child(0, frames.unit(label)) : 0
    const added = addProfile(profile, { frames, tree, scripts, mapper }, under)
    idle += added.idle
    agent += added.agent
    durationMs = Math.max(durationMs, (profile.endTime - profile.startTime) / 1000)
    sampleCount += (profile.samples ?? []).length
    shares.push({ label, samples: added.kept })
  }
  tree.sumTotals()

  /** @type {FlameData} */
  const data = {
    schemaVersion: 1,
    meta: {
      title,
      startedAt: meta.startedAt ?? new Date().toISOString(),
      durationMs,
      samples: tree.nodes.total[0],
      idleSamples: idle,
      agentSamples: agent,
      intervalUs: sampleCount > 0 ? Math.round((durationMs * 1000 * units.length) / sampleCount) : 0,
      node: meta.node ?? null,
      v8: meta.v8 ?? null,
      tiersKnown: tierInfo !== null,
      exit: meta.exit ?? null,
      ...(meta.load !== undefined ? { load: meta.load } : {}),
      ...(meta.warnings?.length ? { warnings: meta.warnings } : {}),
      ...(units.length > 1 ? { units: shares } : {})
    },
    strings: frames.strings.strings,
    frames: frames.columns,
    nodes: tree.nodes,
    sources: appSources(tree, frames, readSource)
  }
  return { data, detail: { selfUs: tree.selfUs, lines: tree.lines } }
}

/**
 * Adds one profile's call tree below the tree node `under`.
 * @param {CpuProfile} profile
 * @param {{ frames: FrameTable, tree: CallTree, scripts: Map<string, import('./inlined.js').ScriptExtents>, mapper: import('./source-maps.js').SourceMapper | null }} into
 * @param {number} under
 * @returns {{ kept: number, idle: number, agent: number }} samples
 */
function addProfile (profile, { frames, tree, scripts, mapper }, under) {
  const { nodes } = profile
  const indexOf = nodeIndex(nodes)
  const samples = samplesPerNode(profile, indexOf)
  const { order, parentAt } = preorder(nodes, indexOf)
  const kept = keptSamples(nodes, order, parentAt, samples.count)
  const repair = scripts.size > 0 ? inliningRepair(nodes, scripts, indexOf) : null
  /** @type {(url: string, lines: { line: number, ticks: number }[] | undefined) => any} sampled lines as written */
  const asWritten = mapper ? (url, lines) => mapper.lines(url, lines) : (url, lines) => lines

  /** tree node of each position in `order` */
  const treeNode = new Int32Array(order.length)
  treeNode[0] = under
  for (let k = 1; k < order.length; k++) {
    if (kept.subtree[k] === 0) continue
    const at = order[k]
    const node = nodes[at]
    const frame = frames.of(node.callFrame)
    const index = (treeNode[k] = tree.child(treeNode[parentAt[k]], frame))
    const placed = repair && samples.count[at] > 0 ? repair.place(node, frames.keys[frame]) : null
    if (placed) addPlaced(tree, frames, index, asWritten(node.callFrame.url, placed), samples.count[at], samples.timeUs[at])
    else tree.addSelf(index, samples.count[at], samples.timeUs[at], asWritten(node.callFrame.url, node.positionTicks))
  }
  return { kept: kept.subtree[0], idle: kept.idle, agent: kept.agent }
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
