import { freemem } from 'node:os'
import { dynoError } from '../../errors.js'
import { bytes as formatBytes } from '../../format.js'

/**
 * What dyno holds per node and per edge while it analyses a snapshot: the
 * graph (type, name, id, self size, first edge; edge type, name, target),
 * then the reverse edges, the dominator tree, retained sizes and the
 * shortest-path tree. Measured peaks stay under this estimate.
 */
export const BYTES_PER_NODE = 17 + 4 + 40 + 8 + 8 + 8
export const BYTES_PER_EDGE = 9 + 4
/** The strings: a share of the file, as they are kept (see string-table.js). */
const STRING_SHARE = 0.2
/** What the process needs besides. */
const BASE_BYTES = 64 * 1024 * 1024

/**
 * @param {{ nodeCount: number, edgeCount: number, fileBytes: number }} counts
 */
export function analysisBytes ({ nodeCount, edgeCount, fileBytes }) {
  return nodeCount * BYTES_PER_NODE + edgeCount * BYTES_PER_EDGE + fileBytes * STRING_SHARE + BASE_BYTES
}

/** The memory the system can give, as Node.js sees it (cgroup limits included). */
export function availableMemory () {
  const proc = /** @type {{ availableMemory?: () => number }} */ (/** @type {unknown} */ (process))
  return typeof proc.availableMemory === 'function' ? proc.availableMemory() : freemem()
}

/**
 * Refuses, in one line, a snapshot whose analysis would not fit: better
 * than an out-of-memory crash halfway.
 * @param {string} path
 * @param {{ nodeCount: number, edgeCount: number, fileBytes: number }} counts
 * @param {{ availableBytes?: number, reservedBytes?: number }} options
 */
export function checkMemory (path, counts, options) {
  const needed = analysisBytes(counts) + (options.reservedBytes ?? 0)
  const available = options.availableBytes ?? availableMemory()
  if (needed > available) {
    throw dynoError('DYNO_HEAP_TOO_LARGE', {
      file: path,
      objects: counts.nodeCount.toLocaleString('en-US'),
      references: counts.edgeCount.toLocaleString('en-US'),
      needed: formatBytes(needed),
      available: formatBytes(available)
    })
  }
}
