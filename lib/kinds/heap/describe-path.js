import { edgeSource } from './snapshot/shortest-paths.js'

/**
 * Names a retainer path as a developer knows it: the variable that holds
 * the leak (a closure or module variable, or a global), what leads from it
 * to the place the objects pile up (properties, an event's listeners, a
 * Map's or a Set's entries, an array's items), and where that variable is.
 *
 * @typedef {object} PathStep one edge of a path, root first
 * @property {string} edge 'property', 'element', 'context' (a variable), 'internal', …
 * @property {string} name the property or variable name, or the index
 * @property {string} to the class of the node it leads to
 * @property {string} toName the node's own name (a function's, a string's value)
 * @property {number} id the node's id in the snapshot
 * @property {string | null} location file:line of a closure, where V8 has it
 *
 * @typedef {object} Holder
 * @property {string} variable the variable or global property, '' when the path has none
 * @property {string} via what leads from it to the objects: "listeners for 'x'", "properties", "Map entries", …
 * @property {string | null} location file:line of the variable's declaration, or of a closure that sees it
 * @property {string} text all of it in one phrase, e.g. "`bus` listeners for 'config-changed'"
 */

/**
 * @param {import('./snapshot/snapshot.js').HeapSnapshot} s
 * @param {number[]} edges the path, root first
 * @param {number} fanOut index of the step where objects held the same way part (differing index or key), -1 if none
 * @param {{ scriptOf: (closure: number) => string | null, declaration: (url: string, variable: string) => number | null, shortUrl: (url: string) => string }} sources
 * @returns {Holder}
 */
export function describeHolder (s, edges, fanOut, sources) {
  const end = fanOut >= 0 ? fanOut : lastCollectionStep(s, edges)
  let anchor = -1
  for (let i = end - 1; i >= 0; i--) {
    if (isVariable(s, edges[i])) {
      anchor = i
      break
    }
  }
  // Property names stay with the variable (`app.cache`); an emitter's listeners read as a phrase.
  let chain = ''
  const phrases = []
  for (let i = anchor + 1; i < end; i++) {
    const e = edges[i]
    if (s.edgeType[e] !== s.edges.property) continue
    const name = s.edgeLabel(e)
    if (name === '_events' && i + 1 < end && s.edgeType[edges[i + 1]] === s.edges.property) {
      phrases.push(`listeners for '${s.edgeLabel(edges[++i])}'`)
    } else if (name !== '__proto__') {
      chain += /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`
    }
  }
  if (phrases.length === 0 && end < edges.length) phrases.push(collectionKind(s, edges[end]))
  const variable = anchor >= 0 ? s.edgeLabel(edges[anchor]) : ''
  const via = phrases.filter(Boolean).join(' ')
  const location = anchor >= 0 ? variableLocation(s, edges, anchor, sources) : null
  const named = variable ? `\`${variable}${chain}\`` : fallbackText(s, edges.slice(0, end))
  const text = `${named} ${via}`.trim()
  return { variable, via, location, text }
}

/**
 * A step that names a variable: a closure or module variable (context
 * edge), or a property of a global object.
 * @param {import('./snapshot/snapshot.js').HeapSnapshot} s @param {number} e
 */
function isVariable (s, e) {
  const type = s.edgeType[e]
  if (type === s.edges.context) return !s.edgeLabel(e).startsWith('.')
  if (type !== s.edges.property) return false
  return GLOBAL_OBJECT.test(s.name(edgeSource(s, e)))
}

/** The global object's name: `global`, `global (global*)` from V8 14 on, `Window`, `Window / <url>`. */
const GLOBAL_OBJECT = /^(global|Window)( |$)/

/**
 * What kind of collection an edge into it reads: the kind of the fan-out step.
 * @param {import('./snapshot/snapshot.js').HeapSnapshot} s @param {number} e
 */
function collectionKind (s, e) {
  const from = edgeSource(s, e)
  const type = s.edgeType[e]
  if (s.nodeType[from] === s.types.object) {
    const name = s.name(from)
    if (name === 'Array') return 'array items'
    return type === s.edges.element ? 'items' : 'properties'
  }
  // Through a backing store (a Map's table, an object's properties or elements): name the object that owns it.
  const owner = internalHolder(s, from, s.types.object)
  const name = owner === -1 ? '' : s.name(owner)
  if (['Map', 'WeakMap', 'Set', 'WeakSet'].includes(name)) return `${name} entries`
  if (name === 'Array') return 'array items'
  return s.name(from) === '(object elements)' ? 'items' : 'properties'
}

/**
 * The first node of the given type that holds `node` by an internal edge:
 * the object whose backing store (table, properties, elements) it is, or
 * a closure whose scope it is.
 * @param {import('./snapshot/snapshot.js').HeapSnapshot} s @param {number} node @param {number} type
 */
function internalHolder (s, node, type) {
  for (let v = 0; v < s.nodeCount; v++) {
    if (s.nodeType[v] !== type) continue
    for (let e = s.firstEdge[v]; e < s.firstEdge[v + 1]; e++) {
      if (s.edgeTo[e] === node && s.edgeType[e] === s.edges.internal) return v
    }
  }
  return -1
}

/**
 * Without a fan-out: the last step into a collection, else the last step.
 * @param {import('./snapshot/snapshot.js').HeapSnapshot} s @param {number[]} edges
 */
function lastCollectionStep (s, edges) {
  for (let i = edges.length - 1; i > 0; i--) {
    const type = s.edgeType[edges[i]]
    if (type === s.edges.element || (type === s.edges.internal && /^\d+$/.test(s.edgeLabel(edges[i])))) return i
  }
  return edges.length - 1
}

/**
 * Where a variable is: its declaration in the script of a closure that
 * sees it, else that closure's own line.
 * @param {import('./snapshot/snapshot.js').HeapSnapshot} s @param {number[]} edges @param {number} anchor
 * @param {{ scriptOf: (closure: number) => string | null, declaration: (url: string, variable: string) => number | null, shortUrl: (url: string) => string }} sources
 */
function variableLocation (s, edges, anchor, sources) {
  const e = edges[anchor]
  if (s.edgeType[e] !== s.edges.context) return null
  const context = edgeSource(s, e)
  const closure = closureOf(s, edges, anchor, context)
  if (closure === -1) return null
  const url = sources.scriptOf(closure)
  if (!url) return null
  const line = sources.declaration(url, s.edgeLabel(e)) ?? ((s.location(closure)?.line ?? -1) + 1)
  return line > 0 ? `${sources.shortUrl(url)}:${line}` : sources.shortUrl(url)
}

/**
 * A closure whose scope holds `context`: the one the path comes through
 * (closure → context → previous… → context), else any.
 * @param {import('./snapshot/snapshot.js').HeapSnapshot} s @param {number[]} edges @param {number} anchor @param {number} context
 */
function closureOf (s, edges, anchor, context) {
  for (let i = anchor - 1; i >= 0; i--) {
    const e = edges[i]
    const label = s.edgeLabel(e)
    if (s.edgeType[e] !== s.edges.internal || (label !== 'context' && label !== 'previous')) break
    const from = edgeSource(s, e)
    if (s.nodeType[from] === s.types.closure) return from
  }
  return internalHolder(s, context, s.types.closure)
}

/** @param {import('./snapshot/snapshot.js').HeapSnapshot} s @param {number[]} edges */
function fallbackText (s, edges) {
  const named = edges.filter((e) => s.edgeType[e] === s.edges.property || s.edgeType[e] === s.edges.context).slice(-3)
  return named.map((e) => s.edgeLabel(e)).join(' → ') || '(GC roots)'
}
