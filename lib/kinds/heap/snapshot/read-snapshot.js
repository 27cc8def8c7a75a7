import { open } from 'node:fs/promises'
import { dynoError } from '../../../errors.js'
import { SectionReader, SnapshotFormatError } from './json-sections.js'
import { checkMemory } from '../memory-budget.js'
import { HeapSnapshot } from './snapshot.js'
import { StringTable } from './string-table.js'

const CHUNK_BYTES = 4 * 1024 * 1024

/**
 * Reads a `.heapsnapshot` file as it streams in: the node and edge arrays go
 * straight into typed arrays (only the fields dyno uses), the strings into a
 * compact table. The fields are found by name in `snapshot.meta`, since V8
 * has added and removed some between Node.js lines. Before it allocates,
 * it checks that the analysis fits in the memory at hand.
 * @param {string} path
 * @param {{ availableBytes?: number, reservedBytes?: number }} [options]
 *   availableBytes: the memory dyno may use (default: what the system says is available);
 *   reservedBytes: what the caller already holds for the analysis
 * @returns {Promise<HeapSnapshot>}
 */
export async function readSnapshot (path, options = {}) {
  let file
  try {
    file = await open(path, 'r')
  } catch (err) {
    throw dynoError('DYNO_BAD_FILE.unreadable', { file: path, why: /** @type {NodeJS.ErrnoException} */ (err).code ?? /** @type {Error} */ (err).message })
  }
  try {
    const { size } = await file.stat()
    const builder = new SnapshotBuilder(path, size, options)
    const reader = new SectionReader((key) => builder.handlerFor(key))
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, CHUNK_BYTES, null)
      if (bytesRead === 0) break
      reader.push(bytesRead === CHUNK_BYTES ? chunk : chunk.subarray(0, bytesRead))
    }
    if (!reader.done) throw new SnapshotFormatError('the file ends before the snapshot does (was it written completely?)')
    return builder.finish()
  } catch (err) {
    if (err instanceof SnapshotFormatError) throw dynoError('DYNO_BAD_SNAPSHOT', { file: path, why: err.message })
    throw err
  } finally {
    await file.close()
  }
}

/** Receives the sections of one snapshot file and assembles a HeapSnapshot. */
class SnapshotBuilder {
  /**
   * @param {string} path @param {number} fileBytes
   * @param {{ availableBytes?: number, reservedBytes?: number }} options
   */
  constructor (path, fileBytes, options) {
    this.path = path
    this.fileBytes = fileBytes
    this.options = options
    /** @type {import('./snapshot.js').SnapshotMeta | null} */
    this.meta = null
    this.nodeCount = 0
    this.edgeCount = 0
    this.nodeFieldCount = 0
    this.nodesRead = 0
    this.edgesRead = 0
    this.strings = new StringTable()
    this.stringsSeen = false
    this.locations = new Uint32Array(1024)
    this.locationCount = 0
    /** @type {any} */
    this.arrays = null
  }

  /**
   * @param {string} key
   * @returns {import('./json-sections.js').SectionHandler}
   */
  handlerFor (key) {
    if (key === 'snapshot') return { kind: 'json', done: (value) => this.setHeader(value) }
    if (key === 'strings') {
      this.stringsSeen = true
      return { kind: 'strings', table: this.strings }
    }
    if (key === 'nodes' || key === 'edges' || key === 'locations') {
      if (!this.meta) throw new SnapshotFormatError(`"${key}" comes before "snapshot"`)
      this.allocate()
      if (key === 'nodes') return { kind: 'numbers', sink: this.nodeSink() }
      if (key === 'edges') return { kind: 'numbers', sink: this.edgeSink() }
      return { kind: 'numbers', sink: this.locationSink() }
    }
    return { kind: 'skip' }
  }

  /** @param {any} header */
  setHeader (header) {
    const meta = header?.meta
    if (!meta || !Array.isArray(meta.node_fields) || !Array.isArray(meta.edge_fields) || !Array.isArray(meta.node_types?.[0]) || !Array.isArray(meta.edge_types?.[0])) {
      throw new SnapshotFormatError('"snapshot.meta" does not describe nodes and edges')
    }
    for (const field of ['type', 'name', 'id', 'self_size', 'edge_count']) {
      if (!meta.node_fields.includes(field)) throw new SnapshotFormatError(`nodes have no "${field}" field`)
    }
    for (const field of ['type', 'name_or_index', 'to_node']) {
      if (!meta.edge_fields.includes(field)) throw new SnapshotFormatError(`edges have no "${field}" field`)
    }
    if (!Number.isInteger(header.node_count) || !Number.isInteger(header.edge_count)) throw new SnapshotFormatError('"snapshot" gives no node_count and edge_count')
    this.meta = meta
    this.nodeCount = header.node_count
    this.edgeCount = header.edge_count
    this.nodeFieldCount = meta.node_fields.length
  }

  allocate () {
    if (this.arrays) return
    checkMemory(this.path, { nodeCount: this.nodeCount, edgeCount: this.edgeCount, fileBytes: this.fileBytes }, this.options)
    const n = this.nodeCount
    const e = this.edgeCount
    this.arrays = {
      nodeType: new Uint8Array(n),
      nodeName: new Uint32Array(n),
      nodeId: /** @type {Uint32Array | Float64Array} */ (new Uint32Array(n)),
      nodeSelf: /** @type {Uint32Array | Float64Array} */ (new Uint32Array(n)),
      firstEdge: new Uint32Array(n + 1),
      edgeType: new Uint8Array(e),
      edgeName: new Uint32Array(e),
      edgeTo: new Uint32Array(e)
    }
  }

  nodeSink () {
    const a = this.arrays
    const fields = /** @type {import('./snapshot.js').SnapshotMeta} */ (this.meta).node_fields
    const count = fields.length
    const TYPE = fields.indexOf('type')
    const NAME = fields.indexOf('name')
    const ID = fields.indexOf('id')
    const SELF = fields.indexOf('self_size')
    const EDGES = fields.indexOf('edge_count')
    const limit = this.nodeCount * count
    let field = 0
    let row = 0
    let edges = 0
    /** @param {Float64Array} batch @param {number} n */
    return (batch, n) => {
      if (this.nodesRead + n > limit) throw new SnapshotFormatError(`more nodes than the ${this.nodeCount} it announces`)
      this.nodesRead += n
      for (let k = 0; k < n; k++) {
        const v = batch[k]
        if (field === TYPE) a.nodeType[row] = v
        else if (field === NAME) a.nodeName[row] = v
        else if (field === ID) {
          if (v > 0xffffffff && a.nodeId instanceof Uint32Array) a.nodeId = Float64Array.from(a.nodeId)
          a.nodeId[row] = v
        } else if (field === SELF) {
          if (v > 0xffffffff && a.nodeSelf instanceof Uint32Array) a.nodeSelf = Float64Array.from(a.nodeSelf)
          a.nodeSelf[row] = v
        } else if (field === EDGES) {
          edges += v
          a.firstEdge[row + 1] = edges
        }
        if (++field === count) {
          field = 0
          row++
        }
      }
    }
  }

  edgeSink () {
    const a = this.arrays
    const fields = /** @type {import('./snapshot.js').SnapshotMeta} */ (this.meta).edge_fields
    const count = fields.length
    const TYPE = fields.indexOf('type')
    const NAME = fields.indexOf('name_or_index')
    const TO = fields.indexOf('to_node')
    const nodeFields = this.nodeFieldCount
    const nodesLength = this.nodeCount * nodeFields
    const limit = this.edgeCount * count
    let field = 0
    let row = 0
    /** @param {Float64Array} batch @param {number} n */
    return (batch, n) => {
      if (this.edgesRead + n > limit) throw new SnapshotFormatError(`more edges than the ${this.edgeCount} it announces`)
      this.edgesRead += n
      for (let k = 0; k < n; k++) {
        const v = batch[k]
        if (field === TYPE) a.edgeType[row] = v
        else if (field === NAME) a.edgeName[row] = v
        else if (field === TO) {
          if (v >= nodesLength || v % nodeFields !== 0) throw new SnapshotFormatError(`edge ${row} points at ${v}, which is no node`)
          a.edgeTo[row] = v / nodeFields
        }
        if (++field === count) {
          field = 0
          row++
        }
      }
    }
  }

  locationSink () {
    const fields = /** @type {import('./snapshot.js').SnapshotMeta} */ (this.meta).location_fields ?? ['object_index', 'script_id', 'line', 'column']
    const count = fields.length
    const order = ['object_index', 'script_id', 'line', 'column'].map((name) => fields.indexOf(name))
    const nodeFields = this.nodeFieldCount
    let field = 0
    const row = [0, 0, 0, 0]
    /** @param {Float64Array} batch @param {number} n */
    return (batch, n) => {
      for (let k = 0; k < n; k++) {
        const slot = order.indexOf(field)
        if (slot !== -1) row[slot] = slot === 0 ? batch[k] / nodeFields : batch[k]
        if (++field === count) {
          field = 0
          this.addLocation(row)
        }
      }
    }
  }

  /** @param {number[]} row */
  addLocation (row) {
    if (this.locationCount + 4 > this.locations.length) {
      const grown = new Uint32Array(this.locations.length * 2)
      grown.set(this.locations)
      this.locations = grown
    }
    this.locations.set(row, this.locationCount)
    this.locationCount += 4
  }

  finish () {
    if (!this.meta || !this.arrays) throw new SnapshotFormatError('it has no "snapshot", "nodes" and "edges"')
    const a = this.arrays
    if (this.nodesRead !== this.nodeCount * this.nodeFieldCount) throw new SnapshotFormatError(`it announces ${this.nodeCount} nodes and holds ${Number.isInteger(this.nodesRead / this.nodeFieldCount) ? this.nodesRead / this.nodeFieldCount : `${this.nodesRead} numbers, not a whole number of nodes,`}`)
    if (this.edgesRead !== this.edgeCount * this.meta.edge_fields.length) throw new SnapshotFormatError(`it announces ${this.edgeCount} edges and holds ${this.edgesRead / this.meta.edge_fields.length}`)
    if (a.firstEdge[this.nodeCount] !== this.edgeCount) throw new SnapshotFormatError('its nodes\' edge counts do not add up to its edges')
    if (!this.stringsSeen) throw new SnapshotFormatError('it has no "strings"')
    this.strings.finish()
    return new HeapSnapshot({ meta: this.meta, ...a, strings: this.strings, locations: sortedLocations(this.locations.subarray(0, this.locationCount)) })
  }
}

/**
 * Locations sorted by node ordinal, for binary search.
 * @param {Uint32Array} locations
 */
function sortedLocations (locations) {
  const rows = locations.length / 4
  const order = new Uint32Array(rows)
  for (let r = 0; r < rows; r++) order[r] = r
  order.sort((x, y) => locations[x * 4] - locations[y * 4])
  const out = new Uint32Array(locations.length)
  for (let r = 0; r < rows; r++) out.set(locations.subarray(order[r] * 4, order[r] * 4 + 4), r * 4)
  return out
}
