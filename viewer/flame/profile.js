/* Reads the FlameData embedded in the page into typed arrays. */
import { bytes, fineMs, fineMsNumber } from '../../lib/format.js'
import { formatCount } from '../shared/format.js'

/** @typedef {import('../../lib/cpu-profile/flame-data.js').FlameData} FlameData */
/** @typedef {ReturnType<typeof readProfile>} Profile */
/** @typedef {Profile['frames']} Frames */
/** @typedef {keyof typeof FILTERS} FilterName */

/** FlameData's tables, name -> index, as lib/kinds/flame/html.js puts them in the page. */
export const FLAME_TABLES = /** @type {{ category: Record<string, number>, tier: Record<string, number> }} */ (JSON.parse(document.getElementById('flame-tables')?.textContent ?? ''))
/** Indexes of FlameData's CATEGORIES (lib/cpu-profile/flame-data.js). */
export const CATEGORY = FLAME_TABLES.category
export const TIER_NAMES = ['unknown', 'interpreted', 'baseline (Sparkplug)', 'Maglev', 'Turbofan']
/**
 * Filter toggles and the categories each one hides. (program) goes with native: both are V8's own time.
 * `processes` are the frames that stand for each process and thread of a profile of several: hidden,
 * their calls merge; shown, each process and thread has its own tower to zoom into.
 * @type {Record<'app' | 'deps' | 'core' | 'native' | 'gc' | 'processes', number[]>}
 */
export const FILTERS = { app: [CATEGORY.app], deps: [CATEGORY.deps], core: [CATEGORY.core], native: [CATEGORY.native, CATEGORY.program], gc: [CATEGORY.gc], processes: [CATEGORY.unit] }

/** @param {string} json the embedded FlameData */
export function readProfile (json) {
  /** @type {FlameData} */
  const data = JSON.parse(json)
  if (!data || data.schemaVersion !== 1) throw new Error('this report holds FlameData of an unknown version')
  const { strings, frames, nodes } = data
  const frameCount = frames.name.length
  const count = nodes.frame.length
  const parent = Int32Array.from(nodes.parent)
  const frame = Int32Array.from(nodes.frame)
  for (let i = 1; i < count; i++) {
    if (!(parent[i] >= 0 && parent[i] < i) || !(frame[i] >= 0 && frame[i] < frameCount)) {
      throw new Error('node ' + i + ' breaks the preorder call tree')
    }
  }
  const before = data.diff ? Float64Array.from(data.diff.before) : null
  if (before && before.length !== count) throw new Error('the before side has ' + before.length + ' nodes, the tree ' + count)
  const names = new Array(frameCount)
  const files = new Array(frameCount)
  for (let f = 0; f < frameCount; f++) {
    names[f] = String(strings[frames.name[f]] ?? '(anonymous)')
    files[f] = frames.file[f] >= 0 ? String(strings[frames.file[f]]) : ''
  }
  return {
    meta: data.meta,
    sources: data.sources || {},
    frames: {
      count: frameCount,
      name: names,
      file: files,
      fileIndex: Int32Array.from(frames.file),
      line: Int32Array.from(frames.line),
      column: Int32Array.from(frames.column),
      category: Uint8Array.from(frames.category),
      tier: Uint8Array.from(frames.tier)
    },
    nodes: {
      count,
      frame,
      parent,
      self: Float64Array.from(nodes.self),
      inlined: Uint8Array.from(nodes.inlined),
      before
    },
    /** what a differential report compares, beside `nodes.before`; null for one profile */
    diff: data.diff ? { requests: data.diff.requests, total: data.diff.total, functions: data.diff.functions } : null
  }
}

/**
 * How much a count of the profile is, in its unit: CPU samples, or the
 * bytes an allocation profile counts (`dyno heap --sampling`).
 * @param {FlameData['meta']} meta
 * @returns {(n: number) => string}
 */
export function amountText (meta) {
  if (meta.unit === 'ms per request') return (n) => fineMs(n) + ' per request'
  if (meta.unit !== 'bytes') return (n) => formatCount(n) + ' samples'
  return (n) => bytes(Math.round(n)) + ' allocated'
}

/**
 * A count of the profile as a bare number, for the tables: whole samples or
 * bytes, or ms for CPU time per request.
 * @param {FlameData['meta']} meta
 * @returns {(n: number) => string}
 */
export function countText (meta) {
  return meta.unit === 'ms per request' ? fineMsNumber : formatCount
}
