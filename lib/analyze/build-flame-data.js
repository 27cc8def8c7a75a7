import { relative } from 'node:path'
import { APP, categorize, urlToPath } from './categorize.js'
import { frameKey } from './cpuprofile.js'
import { functionAt, placeTicks } from './inlined.js'

/** @typedef {import('./cpuprofile.js').CpuProfile} CpuProfile */
/** @typedef {import('./flame-data.js').FlameData} FlameData */
/** @typedef {import('./flame-data.js').FlameMeta} FlameMeta */

/**
 * What V8 said about each function's optimization, by frame key.
 * @typedef {object} TierInfo
 * @property {Map<string, number>} tiers frame key -> index into TIERS
 * @property {Set<string>} inlined `callerKey\u0001calleeKey` for calls V8 inlined
 */

/**
 * Turns a (merged) CPU profile into FlameData. Pure: file reads come in
 * through `readSource`.
 * @param {CpuProfile} profile
 * @param {object} options
 * @param {string} options.title
 * @param {string} options.cwd the app's folder: app file paths are shown relative to it
 * @param {Partial<FlameMeta>} [options.meta]
 * @param {TierInfo | null} [options.tierInfo]
 * @param {(path: string) => string | null} [options.readSource] the text of an app file, or null
 * @param {Map<string, import('./inlined.js').ScriptExtents>} [options.scripts] function extents by URL,
 *   to give inlined functions their samples back (see inlined.js)
 * @returns {FlameData}
 */
export function buildFlameData (profile, { title, cwd, meta = {}, tierInfo = null, readSource = () => null, scripts = new Map() }) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const selfById = countSamples(profile)
  const hasParent = new Set(profile.nodes.flatMap((n) => n.children ?? []))
  const root = profile.nodes.find((n) => !hasParent.has(n.id)) ?? profile.nodes[0]
  const inlining = scripts.size > 0 ? inliningContext(profile, scripts) : null

  /** @type {string[]} */
  const strings = []
  /** @type {Map<string, number>} */
  const stringIndex = new Map()
  const intern = (/** @type {string} */ s) => {
    let i = stringIndex.get(s)
    if (i === undefined) {
      i = strings.length
      strings.push(s)
      stringIndex.set(s, i)
    }
    return i
  }

  const frames = { name: /** @type {number[]} */ ([]), file: /** @type {number[]} */ ([]), line: /** @type {number[]} */ ([]), column: /** @type {number[]} */ ([]), category: /** @type {number[]} */ ([]), tier: /** @type {number[]} */ ([]) }
  /** @type {Map<string, number>} */
  const frameIndex = new Map()
  /** @type {string[]} */
  const frameKeys = []
  const frameOf = (/** @type {import('./cpuprofile.js').CallFrame} */ cf) => {
    const key = frameKey(cf)
    let i = frameIndex.get(key)
    if (i !== undefined) return i
    i = frames.name.length
    frameIndex.set(key, i)
    frameKeys.push(key)
    const category = categorize(cf)
    const path = urlToPath(cf.url)
    const shown = path !== null && category === APP ? relative(cwd, path) || path : (path ?? cf.url)
    frames.name.push(intern(cf.functionName || '(anonymous)'))
    frames.file.push(cf.url ? intern(shown) : -1)
    frames.line.push(cf.url ? cf.lineNumber + 1 : 0)
    frames.column.push(cf.url ? cf.columnNumber + 1 : 0)
    frames.category.push(category)
    frames.tier.push(tierInfo?.tiers.get(key) ?? 0)
    return i
  }

  const nodes = { frame: /** @type {number[]} */ ([]), parent: /** @type {number[]} */ ([]), self: /** @type {number[]} */ ([]), total: /** @type {number[]} */ ([]), inlined: /** @type {number[]} */ ([]) }
  /** @type {Map<number, Map<number, number>>} per app file string index: line -> samples */
  const fileLines = new Map()
  /** @type {Map<number, string>} app file string index -> path on disk */
  const appFiles = new Map()
  /** @param {import('./cpuprofile.js').CallFrame} cf @param {{ line: number, ticks: number }[]} ticks */
  const addLines = (cf, ticks) => {
    if (categorize(cf) !== APP) return
    const file = frames.file[frameOf(cf)]
    const path = urlToPath(cf.url)
    if (path !== null) appFiles.set(file, path)
    let lines = fileLines.get(file)
    if (!lines) fileLines.set(file, (lines = new Map()))
    for (const { line, ticks: n } of ticks) lines.set(line, (lines.get(line) ?? 0) + n)
  }
  let idleSamples = 0

  /** @type {Map<number, number>} parent index * 2^24 + frame -> node index, to merge siblings */
  const seen = new Map()
  /** The child of `parent` for `frame`, made when missing. @param {number} parent @param {number} frame @param {number} inlined */
  const nodeFor = (parent, frame, inlined) => {
    const siblingKey = parent * 16777216 + frame
    let index = seen.get(siblingKey)
    if (index === undefined) {
      index = nodes.frame.length
      seen.set(siblingKey, index)
      nodes.frame.push(frame)
      nodes.parent.push(parent)
      nodes.self.push(0)
      nodes.total.push(0)
      nodes.inlined.push(inlined)
    }
    return index
  }
  if (root) {
    nodes.frame.push(-1)
    nodes.parent.push(-1)
    nodes.self.push(0)
    nodes.total.push(0)
    nodes.inlined.push(0)
    // Iterative preorder: stacks can be thousands deep.
    /** @type {[number, number, string][]} profile node id, parent index, parent frame key */
    const stack = []
    const pushChildren = (/** @type {import('./cpuprofile.js').ProfileNode} */ node, /** @type {number} */ index, /** @type {string} */ key) => {
      const children = node.children ?? []
      for (let c = children.length - 1; c >= 0; c--) stack.push([children[c], index, key])
    }
    pushChildren(root, 0, '')
    const visited = new Set()
    while (stack.length > 0) {
      const [id, parent, parentKey] = /** @type {[number, number, string]} */ (stack.pop())
      const node = byId.get(id)
      if (!node || visited.has(id)) continue
      visited.add(id)
      const cf = node.callFrame
      const self = selfById(id)
      if (cf.functionName === '(idle)' && cf.url === '') {
        idleSamples += self
        continue
      }
      const frame = frameOf(cf)
      const key = frameKeys[frame]
      const index = nodeFor(parent, frame, tierInfo?.inlined.has(`${parentKey}\u0001${key}`) ? 1 : 0)
      const placed = inlining && node.positionTicks && self > 0 ? inlining.place(node, key) : null
      let ownTicks = node.positionTicks
      let ownSelf = self
      if (placed) {
        ownTicks = []
        for (const p of placed) {
          if (p.to === null) {
            ownTicks.push({ line: p.line, ticks: p.ticks })
            continue
          }
          // Samples of an inlined callee: a child node of their own, marked inlined.
          const child = nodeFor(index, frameOf(p.to), 1)
          nodes.inlined[child] = 1
          nodes.self[child] += p.ticks
          ownSelf -= p.ticks
          addLines(p.to, [{ line: p.line, ticks: p.ticks }])
        }
      }
      nodes.self[index] += ownSelf
      if (ownTicks) addLines(cf, ownTicks)
      pushChildren(node, index, key)
    }
  }

  // Preorder puts every child after its parent: one backward pass sums totals.
  for (let i = 0; i < nodes.self.length; i++) nodes.total[i] = nodes.self[i]
  for (let i = nodes.total.length - 1; i > 0; i--) nodes.total[nodes.parent[i]] += nodes.total[i]

  /** @type {Record<string, import('./flame-data.js').FlameSource>} */
  const sources = {}
  for (const [file, lines] of fileLines) {
    const path = appFiles.get(file)
    const text = path ? readSource(path) : null
    if (text === null) continue
    sources[String(file)] = { text, lines: Object.fromEntries([...lines].sort((a, b) => a[0] - b[0])) }
  }

  const samples = nodes.total[0] ?? 0
  const durationMs = (profile.endTime - profile.startTime) / 1000
  const sampleCount = (profile.samples ?? []).length
  return {
    schemaVersion: 1,
    meta: {
      title,
      startedAt: meta.startedAt ?? new Date().toISOString(),
      durationMs,
      samples,
      idleSamples,
      intervalUs: sampleCount > 0 ? Math.round((durationMs * 1000) / sampleCount) : 0,
      node: meta.node ?? null,
      v8: meta.v8 ?? null,
      tiersKnown: tierInfo !== null,
      exit: meta.exit ?? null,
      ...(meta.load !== undefined ? { load: meta.load } : {})
    },
    strings,
    frames,
    nodes,
    sources
  }
}

/**
 * What inlined.js needs to place a frame's sampled lines: the callees seen
 * under each frame, and for each function extent the call frame V8 uses for
 * it, so that moved samples join the function's existing frame.
 * @param {CpuProfile} profile
 * @param {Map<string, import('./inlined.js').ScriptExtents>} scripts
 */
function inliningContext (profile, scripts) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  /** @type {Map<string, Map<string, { url: string, line: number, column: number }>>} */
  const callees = new Map()
  /** @type {Map<import('./inlined.js').FunctionExtent, import('./cpuprofile.js').CallFrame>} */
  const frameOfExtent = new Map()
  for (const node of profile.nodes) {
    const cf = node.callFrame
    const script = scripts.get(cf.url)
    const extent = script && functionAt(script, cf.lineNumber + 1, cf.columnNumber + 1)
    if (extent && !frameOfExtent.has(extent)) frameOfExtent.set(extent, cf)
    const key = frameKey(cf)
    for (const childId of node.children ?? []) {
      const child = byId.get(childId)?.callFrame
      if (!child || !child.url) continue
      let set = callees.get(key)
      if (!set) callees.set(key, (set = new Map()))
      set.set(frameKey(child), { url: child.url, line: child.lineNumber + 1, column: child.columnNumber + 1 })
    }
  }
  return {
    /**
     * @param {import('./cpuprofile.js').ProfileNode} node
     * @param {string} key
     */
    place (node, key) {
      const cf = node.callFrame
      if (!scripts.has(cf.url)) return null
      const placed = placeTicks(
        { url: cf.url, line: cf.lineNumber + 1, column: cf.columnNumber + 1 },
        /** @type {{ line: number, ticks: number }[]} */ (node.positionTicks),
        scripts,
        [...(callees.get(key)?.values() ?? [])]
      )
      if (placed.every((p) => p.to === null)) return null
      return placed.map((p) => ({
        line: p.line,
        ticks: p.ticks,
        to: p.to === null ? null : frameOfExtent.get(p.to.fn) ?? syntheticFrame(p.to, /** @type {import('./inlined.js').ScriptExtents} */ (scripts.get(p.to.url)))
      }))
    }
  }
}

/**
 * A call frame for a function V8 never sampled in a frame of its own.
 * @param {import('./inlined.js').Placed} placed
 * @param {import('./inlined.js').ScriptExtents} script
 * @returns {import('./cpuprofile.js').CallFrame}
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

/**
 * Samples per node id. V8 numbers nodes 1, 2, 3…, so a typed array indexed
 * by id counts hundreds of thousands of samples fast; odd ids get a map.
 * @param {CpuProfile} profile
 * @returns {(id: number) => number}
 */
function countSamples (profile) {
  const samples = profile.samples ?? []
  let maxId = 0
  for (const n of profile.nodes) if (n.id > maxId) maxId = n.id
  if (Number.isInteger(maxId) && maxId <= 4 * profile.nodes.length + 1024) {
    const counts = new Float64Array(maxId + 1)
    if (samples.length > 0) {
      for (let i = 0; i < samples.length; i++) if (samples[i] >= 0 && samples[i] <= maxId) counts[samples[i]]++
    } else {
      for (const n of profile.nodes) counts[n.id] = n.hitCount ?? 0
    }
    return (id) => counts[id] ?? 0
  }
  /** @type {Map<number, number>} */
  const counts = new Map()
  if (samples.length > 0) for (const id of samples) counts.set(id, (counts.get(id) ?? 0) + 1)
  else for (const n of profile.nodes) counts.set(n.id, n.hitCount ?? 0)
  return (id) => counts.get(id) ?? 0
}
