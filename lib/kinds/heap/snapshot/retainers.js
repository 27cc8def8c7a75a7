import { describeHolder } from '../describe-path.js'
import { NO_CLASS } from './dominators.js'
import { edgeSource, pathTo } from './shortest-paths.js'

/** The most objects of one class whose paths are walked; more are sampled evenly. */
const MAX_WALKED = 20_000
/** Sample objects kept per class, to show. */
const SAMPLES = 5
/** Paths kept per class. */
const PATHS = 3
/** An object with more edges than this is taken for a dictionary: its keys part objects held the same way. */
const DICTIONARY_EDGES = 64

/**
 * The objects of a class that grew, held the same way, as one path with a
 * count: their shortest retainer paths, clustered by shape (the same edges
 * and classes, whatever the index or key at each step).
 *
 * @typedef {object} HeldPath
 * @property {number} count objects held this way (of those walked)
 * @property {import('../describe-path.js').PathStep[]} steps root first, for one of them
 * @property {import('../describe-path.js').Holder} holder
 *
 * @typedef {object} ClassRetainers
 * @property {string} name
 * @property {number} objects objects of the class that are new (or survived, with three snapshots)
 * @property {number} walked how many of them had their paths walked
 * @property {{ id: number, name: string, selfSize: number, retainedSize: number }[]} samples
 * @property {HeldPath[]} paths most common first
 */

/**
 * @param {import('./snapshot.js').HeapSnapshot} s
 * @param {{ classOf: Uint32Array, classNames: string[] }} summary
 * @param {import('./dominators.js').Dominators} dom
 * @param {import('./shortest-paths.js').PathTree} tree
 * @param {Uint8Array} mask the objects to look at (the new ones)
 * @param {string[]} classes the classes to look at
 * @param {ReturnType<typeof import('../sources.js').snapshotSources>} sources
 * @returns {ClassRetainers[]}
 */
export function classRetainers (s, summary, dom, tree, mask, classes, sources) {
  const wanted = new Map(classes.map((name) => [summary.classNames.indexOf(name), name]))
  /** @type {Map<number, number[]>} */
  const members = new Map([...wanted.keys()].map((c) => [c, []]))
  for (let v = 0; v < s.nodeCount; v++) {
    if (mask[v] === 0) continue
    const c = summary.classOf[v]
    if (c !== NO_CLASS) members.get(c)?.push(v)
  }
  return [...wanted].filter(([c]) => c !== -1).map(([c, name]) => {
    const all = /** @type {number[]} */ (members.get(c))
    const stride = Math.max(1, Math.ceil(all.length / MAX_WALKED))
    /** @type {Map<string, { count: number, edges: number[], others: number[][] }>} */
    const clusters = new Map()
    for (let i = 0; i < all.length; i += stride) {
      const edges = pathTo(s, tree, all[i])
      const key = shapeOf(s, edges)
      const cluster = clusters.get(key)
      if (!cluster) clusters.set(key, { count: 1, edges, others: [] })
      else {
        cluster.count++
        if (cluster.others.length < 4) cluster.others.push(edges)
      }
    }
    const walked = Math.ceil(all.length / stride)
    const paths = [...clusters.values()].sort((a, b) => b.count - a.count).slice(0, PATHS).map((cluster) => ({
      count: Math.round(cluster.count * all.length / walked),
      steps: cluster.edges.map((e) => step(s, e, sources)),
      holder: describeHolder(s, cluster.edges, fanOut(s, cluster.edges, cluster.others), sources)
    }))
    const samples = all.slice(0, 200).sort((a, b) => dom.retained[b] - dom.retained[a]).slice(0, SAMPLES).map((v) => ({
      id: s.nodeId[v],
      name: s.name(v),
      selfSize: s.nodeSelf[v],
      retainedSize: dom.retained[v]
    }))
    return { name, objects: all.length, walked, samples, paths }
  })
}

/**
 * A path's shape: its edges and classes, with indexes and keys left out
 * where they part objects held the same way: element indexes, and the
 * property names of an object used as a dictionary (one with more than
 * DICTIONARY_EDGES edges).
 * @param {import('./snapshot.js').HeapSnapshot} s @param {number[]} edges
 */
function shapeOf (s, edges) {
  let key = ''
  for (const e of edges) {
    const type = s.edgeType[e]
    let label = s.edgeLabel(e)
    if (type === s.edges.element || type === s.edges.hidden || (type === s.edges.internal && /^\d+$/.test(label))) label = '#'
    else if (type === s.edges.property) {
      const from = edgeSource(s, e)
      if (s.firstEdge[from + 1] - s.firstEdge[from] > DICTIONARY_EDGES) label = '#'
    }
    key += `${type}:${label}>${s.className(s.classKey(s.edgeTo[e]))}|`
  }
  return key
}

/**
 * The first step where paths of the same shape part: an index or key that
 * differs. Dictionary-mode objects hold their values by key, so a property
 * step can be it too.
 * @param {import('./snapshot.js').HeapSnapshot} s @param {number[]} edges @param {number[][]} others
 */
function fanOut (s, edges, others) {
  let first = -1
  for (const other of others) {
    for (let i = 0; i < Math.min(edges.length, other.length); i++) {
      if (s.edgeLabel(edges[i]) !== s.edgeLabel(other[i]) || edgeSource(s, edges[i]) !== edgeSource(s, other[i])) {
        if (first === -1 || i < first) first = i
        break
      }
    }
  }
  return first
}

/**
 * @param {import('./snapshot.js').HeapSnapshot} s @param {number} e
 * @param {ReturnType<typeof import('../sources.js').snapshotSources>} sources
 * @returns {import('../describe-path.js').PathStep}
 */
function step (s, e, sources) {
  const to = s.edgeTo[e]
  let location = null
  if (s.nodeType[to] === s.types.closure) {
    const url = sources.scriptOf(to)
    const at = s.location(to)
    if (url) location = at ? `${sources.shortUrl(url)}:${at.line + 1}` : sources.shortUrl(url)
  }
  const toName = s.nodeType[to] === s.types.string || s.nodeType[to] === s.types.closure ? s.name(to) : ''
  return {
    edge: s.edgeTypeNames[s.edgeType[e]] ?? 'unknown',
    name: s.edgeLabel(e),
    to: s.className(s.classKey(to)),
    toName: toName.length > 80 ? toName.slice(0, 80) + '…' : toName,
    id: s.nodeId[to],
    location
  }
}
