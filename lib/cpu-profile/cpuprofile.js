import { nodeIndex } from './profile-samples.js'

/**
 * The `.cpuprofile` format (Chrome DevTools, `node --cpu-prof`, the inspector
 * Profiler domain) and merging several of them into one: the agent writes a
 * profile in chunks, and DevTools wants one file.
 */

/**
 * @typedef {object} CallFrame
 * @property {string} functionName
 * @property {string} scriptId
 * @property {string} url
 * @property {number} lineNumber 0-based
 * @property {number} columnNumber 0-based
 */

/**
 * @typedef {object} ProfileNode
 * @property {number} id
 * @property {CallFrame} callFrame
 * @property {number} [hitCount]
 * @property {number[]} [children]
 * @property {{ line: number, ticks: number }[]} [positionTicks]
 */

/**
 * @typedef {object} CpuProfile
 * @property {ProfileNode[]} nodes
 * @property {number} startTime µs
 * @property {number} endTime µs
 * @property {number[]} [samples] node id of each sample
 * @property {number[]} [timeDeltas] µs since the previous sample (the first: since startTime)
 */

/**
 * What makes two frames the same function. Code without a URL (eval) is
 * told apart by its script id.
 * @param {CallFrame} frame
 */
export function frameKey (frame) {
  return `${frame.functionName}\u0000${frame.url || `#${frame.scriptId}`}\u0000${frame.lineNumber}\u0000${frame.columnNumber}`
}

/**
 * Checks that a parsed file is a CPU profile; returns a reason when it is not.
 * @param {any} value
 * @returns {string | null}
 */
export function whyNotProfile (value) {
  if (value === null || typeof value !== 'object') return 'it is not a JSON object'
  if (!Array.isArray(value.nodes) || value.nodes.length === 0) return 'it has no "nodes" array'
  const isNode = (/** @type {any} */ n) => n && typeof n.id === 'number' && n.callFrame &&
    typeof n.callFrame.functionName === 'string' && typeof n.callFrame.url === 'string' &&
    (n.children === undefined || (Array.isArray(n.children) && n.children.every((/** @type {unknown} */ c) => typeof c === 'number')))
  if (!value.nodes.every(isNode)) return 'its nodes are not profile nodes (id, callFrame with functionName and url, children)'

  if (value.samples !== undefined && !Array.isArray(value.samples)) return '"samples" is not an array'
  if (value.timeDeltas !== undefined && !(Array.isArray(value.timeDeltas) && value.timeDeltas.every(Number.isFinite))) return '"timeDeltas" is not an array of numbers'
  // Samples name the node on top of the stack; one the profile lacks would be dropped without a word.
  const indexOf = nodeIndex(value.nodes)
  const samples = value.samples ?? []
  let stray = 0
  let first
  for (let i = 0; i < samples.length; i++) {
    if (indexOf(samples[i]) >= 0) continue
    if (stray++ === 0) first = samples[i]
  }
  if (stray > 0) return `${stray} of its ${samples.length} samples point at nodes it does not have (the first at node ${String(first).slice(0, 20)})`
  return null
}

/**
 * Merges profiles taken one after another in one process into one profile:
 * the call trees are merged frame by frame, samples and times are kept in order.
 * Siblings that V8 kept apart for the same function are merged too.
 * @param {CpuProfile[]} profiles in time order
 * @returns {CpuProfile}
 */
export function mergeProfiles (profiles) {
  const merger = new ProfileMerger()
  for (const profile of profiles) merger.add(profile)
  return merger.result()
}

/**
 * The merge of mergeProfiles, a chunk at a time, so that a long profile's
 * chunks can be read and dropped one by one.
 *
 * Ten minutes of profile are sixty chunks of up to hundreds of thousands of
 * nodes, so the loop avoids building strings: a frame becomes a small
 * integer found through numbers (its script id and start position; in one
 * process that names a function), and a node's children are found by a scan
 * of their frame ids, or a map for the few nodes with many children.
 */
export class ProfileMerger {
  constructor () {
    /** @type {ProfileNode[]} */
    this.nodes = []
    /** @type {Map<number, Map<number, number>>} script id -> position -> frame id */
    this.scriptFrames = new Map()
    /** @type {Map<string, number>} frames without a script (native, GC, idle) by name -> frame id */
    this.namedFrames = new Map()
    this.frameCount = 0
    /** @type {number[][]} per merged node: the frame id of each child, in `children` order */
    this.childFrames = []
    /** @type {Map<number, Map<number, number>>} merged node -> frame id -> child, for wide nodes */
    this.wideChildren = new Map()
    /** @type {Map<number, Map<number, number>>} merged id -> line -> ticks */
    this.lineTicks = new Map()
    /** @type {number[]} */
    this.samples = []
    /** @type {number[]} */
    this.timeDeltas = []
    this.lastTime = -1
    this.startTime = Infinity
    this.endTime = -Infinity
  }

  /** @param {CallFrame} cf */
  frameId (cf) {
    const script = Number(cf.scriptId)
    if (script > 0 && cf.lineNumber >= 0) {
      let positions = this.scriptFrames.get(script)
      if (!positions) this.scriptFrames.set(script, (positions = new Map()))
      const position = cf.lineNumber * 4294967296 + cf.columnNumber
      let id = positions.get(position)
      if (id === undefined) positions.set(position, (id = this.frameCount++))
      return id
    }
    const key = `${cf.functionName}\u0000${cf.url}`
    let id = this.namedFrames.get(key)
    if (id === undefined) this.namedFrames.set(key, (id = this.frameCount++))
    return id
  }

  /**
   * The merged child of `parent` for a frame, made when missing.
   * @param {number} parent merged id
   * @param {CallFrame} callFrame
   */
  child (parent, callFrame) {
    const frame = this.frameId(callFrame)
    const frames = this.childFrames[parent - 1]
    const children = /** @type {number[]} */ (this.nodes[parent - 1].children)
    const wide = this.wideChildren.get(parent)
    if (wide) {
      const found = wide.get(frame)
      if (found !== undefined) return found
    } else {
      for (let i = 0; i < frames.length; i++) if (frames[i] === frame) return children[i]
    }
    const id = this.nodes.length + 1
    this.nodes.push({ id, callFrame, hitCount: 0, children: [] })
    this.childFrames.push([])
    children.push(id)
    frames.push(frame)
    if (wide) {
      wide.set(frame, id)
    } else if (frames.length > 16) {
      this.wideChildren.set(parent, new Map(frames.map((f, i) => [f, children[i]])))
    }
    return id
  }

  /** @param {CpuProfile} profile the next chunk in time */
  add (profile) {
    const { nodes, lineTicks } = this
    const chunkNodes = profile.nodes
    /** @type {Map<number, number>} chunk node id -> index in chunkNodes */
    const indexOf = new Map()
    const isChild = new Set()
    for (let i = 0; i < chunkNodes.length; i++) {
      indexOf.set(chunkNodes[i].id, i)
      for (const c of chunkNodes[i].children ?? []) isChild.add(c)
    }
    // The root is the node no other lists; a malformed profile may have none.
    const rootIndex = Math.max(0, chunkNodes.findIndex((n) => !isChild.has(n.id)))
    if (chunkNodes.length === 0) return
    if (nodes.length === 0) {
      nodes.push({ id: 1, callFrame: chunkNodes[rootIndex].callFrame, hitCount: 0, children: [] })
      this.childFrames.push([])
    }
    /** @type {Map<number, number>} chunk node id -> merged id */
    const mapped = new Map()
    const pending = [rootIndex]
    const pendingMerged = [1]
    while (pending.length > 0) {
      const node = chunkNodes[/** @type {number} */ (pending.pop())]
      const id = /** @type {number} */ (pendingMerged.pop())
      // Each node once, even in a malformed profile that lists a node below itself.
      if (mapped.has(node.id)) continue
      mapped.set(node.id, id)
      const merged = nodes[id - 1]
      merged.hitCount = (merged.hitCount ?? 0) + (node.hitCount ?? 0)
      if (node.positionTicks && node.positionTicks.length > 0) {
        let ticks = lineTicks.get(id)
        if (!ticks) lineTicks.set(id, (ticks = new Map()))
        for (const { line, ticks: n } of node.positionTicks) ticks.set(line, (ticks.get(line) ?? 0) + n)
      }
      for (const childId of node.children ?? []) {
        const childIndex = indexOf.get(childId)
        if (childIndex === undefined) continue
        pending.push(childIndex)
        pendingMerged.push(this.child(id, chunkNodes[childIndex].callFrame))
      }
    }
    this.startTime = Math.min(this.startTime, profile.startTime)
    this.endTime = Math.max(this.endTime, profile.endTime)
    let time = profile.startTime
    const deltas = profile.timeDeltas ?? []
    const chunkSamples = profile.samples ?? []
    for (let i = 0; i < chunkSamples.length; i++) {
      time += deltas[i] ?? 0
      const id = mapped.get(chunkSamples[i])
      if (id === undefined) continue
      this.samples.push(id)
      this.timeDeltas.push(this.lastTime < 0 ? time - this.startTime : Math.max(0, time - this.lastTime))
      this.lastTime = time
    }
  }

  /** @returns {CpuProfile} */
  result () {
    for (const [id, ticks] of this.lineTicks) {
      this.nodes[id - 1].positionTicks = [...ticks].map(([line, n]) => ({ line, ticks: n }))
    }
    return {
      nodes: this.nodes,
      startTime: Number.isFinite(this.startTime) ? this.startTime : 0,
      endTime: Number.isFinite(this.endTime) ? this.endTime : 0,
      samples: this.samples,
      timeDeltas: this.timeDeltas
    }
  }
}
