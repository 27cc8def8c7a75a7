/**
 * A heap snapshot as typed arrays, indexed by node ordinal (0 is the
 * synthetic root) and edge index. Built by read-snapshot.js; the analyses
 * read it and never change it.
 *
 * @typedef {object} SnapshotMeta what the file's `snapshot.meta` says
 * @property {string[]} node_fields
 * @property {[string[], ...unknown[]]} node_types
 * @property {string[]} edge_fields
 * @property {[string[], ...unknown[]]} edge_types
 * @property {string[]} [location_fields]
 */

export class HeapSnapshot {
  /**
   * @param {object} parts
   * @param {SnapshotMeta} parts.meta
   * @param {Uint8Array} parts.nodeType
   * @param {Uint32Array} parts.nodeName
   * @param {Uint32Array | Float64Array} parts.nodeId
   * @param {Uint32Array | Float64Array} parts.nodeSelf
   * @param {Uint32Array} parts.firstEdge nodeCount + 1 entries
   * @param {Uint8Array} parts.edgeType
   * @param {Uint32Array} parts.edgeName
   * @param {Uint32Array} parts.edgeTo node ordinals
   * @param {import('./string-table.js').StringTable} parts.strings
   * @param {Uint32Array} parts.locations node ordinal, script id, line, column (0-based), sorted by ordinal
   */
  constructor (parts) {
    this.meta = parts.meta
    this.nodeType = parts.nodeType
    this.nodeName = parts.nodeName
    this.nodeId = parts.nodeId
    this.nodeSelf = parts.nodeSelf
    this.firstEdge = parts.firstEdge
    this.edgeType = parts.edgeType
    this.edgeName = parts.edgeName
    this.edgeTo = parts.edgeTo
    this.strings = parts.strings
    this.locations = parts.locations
    this.nodeCount = this.nodeType.length
    this.edgeCount = this.edgeTo.length
    const nodeTypes = parts.meta.node_types[0]
    const edgeTypes = parts.meta.edge_types[0]
    this.nodeTypeNames = nodeTypes
    this.edgeTypeNames = edgeTypes
    /** Node type numbers by name (-1 when this V8 has no such type). */
    this.types = {
      hidden: nodeTypes.indexOf('hidden'),
      array: nodeTypes.indexOf('array'),
      string: nodeTypes.indexOf('string'),
      object: nodeTypes.indexOf('object'),
      code: nodeTypes.indexOf('code'),
      closure: nodeTypes.indexOf('closure'),
      native: nodeTypes.indexOf('native'),
      synthetic: nodeTypes.indexOf('synthetic'),
      consString: nodeTypes.indexOf('concatenated string'),
      slicedString: nodeTypes.indexOf('sliced string')
    }
    /** Edge type numbers by name. */
    this.edges = {
      context: edgeTypes.indexOf('context'),
      element: edgeTypes.indexOf('element'),
      property: edgeTypes.indexOf('property'),
      internal: edgeTypes.indexOf('internal'),
      hidden: edgeTypes.indexOf('hidden'),
      shortcut: edgeTypes.indexOf('shortcut'),
      weak: edgeTypes.indexOf('weak')
    }
  }

  /** @param {number} node */
  name (node) {
    return this.strings.get(this.nodeName[node])
  }

  /** @param {number} node */
  typeName (node) {
    return this.nodeTypeNames[this.nodeType[node]] ?? 'unknown'
  }

  /**
   * A number per class (DevTools' grouping): objects and native objects by
   * their constructor name, everything else by its type.
   * @param {number} node
   */
  classKey (node) {
    const type = this.nodeType[node]
    if (type === this.types.object || type === this.types.native) return this.nodeName[node]
    return this.strings.count + type
  }

  /** @param {number} key a classKey() */
  className (key) {
    if (key < this.strings.count) return this.strings.get(key)
    const type = key - this.strings.count
    if (type === this.types.hidden) return '(system)'
    if (type === this.types.code) return '(compiled code)'
    return `(${this.nodeTypeNames[type] ?? 'unknown'})`
  }

  /**
   * The edge's name: a property or variable name, or an index as text.
   * @param {number} edge
   */
  edgeLabel (edge) {
    const type = this.edgeType[edge]
    if (type === this.edges.element || type === this.edges.hidden) return String(this.edgeName[edge])
    return this.strings.get(this.edgeName[edge])
  }

  /**
   * The first edge of `node` of the given type and name, or -1.
   * @param {number} node @param {number} type @param {string} name
   */
  findEdge (node, type, name) {
    for (let e = this.firstEdge[node]; e < this.firstEdge[node + 1]; e++) {
      if (this.edgeType[e] === type && this.strings.get(this.edgeName[e]) === name) return e
    }
    return -1
  }

  /**
   * Where V8 says a node (a closure) is: script id, 0-based line and column.
   * @param {number} node
   * @returns {{ scriptId: number, line: number, column: number } | null}
   */
  location (node) {
    const loc = this.locations
    let lo = 0
    let hi = loc.length / 4 - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const at = loc[mid * 4]
      if (at === node) return { scriptId: loc[mid * 4 + 1], line: loc[mid * 4 + 2], column: loc[mid * 4 + 3] }
      if (at < node) lo = mid + 1
      else hi = mid - 1
    }
    return null
  }
}
