/* Reads the FlameData embedded in the page into typed arrays. */
/* exported readProfile, CATEGORY, TIER_NAMES, FILTERS */

/** @typedef {import('../../lib/analyze/flame-data.js').FlameData} FlameData */
/** @typedef {ReturnType<typeof readProfile>} Profile */
/** @typedef {Profile['frames']} Frames */
/** @typedef {keyof typeof FILTERS} FilterName */

/** Indexes of FlameData's CATEGORIES (lib/analyze/flame-data.js). */
const CATEGORY = { app: 0, deps: 1, core: 2, native: 3, gc: 4, program: 5 }
const TIER_NAMES = ['unknown', 'interpreted', 'baseline (Sparkplug)', 'Maglev', 'Turbofan']
/**
 * Filter toggles and the categories each one hides. (program) goes with native: both are V8's own time.
 * @type {Record<'app' | 'deps' | 'core' | 'native' | 'gc', number[]>}
 */
const FILTERS = { app: [CATEGORY.app], deps: [CATEGORY.deps], core: [CATEGORY.core], native: [CATEGORY.native, CATEGORY.program], gc: [CATEGORY.gc] }

/** @param {string} json the embedded FlameData */
function readProfile (json) {
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
      inlined: Uint8Array.from(nodes.inlined)
    }
  }
}
