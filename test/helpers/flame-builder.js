/**
 * Builds FlameData by hand: frames are interned, nodes are added in preorder,
 * totals are summed at the end. Used by the fixtures and the generator.
 */
import { CATEGORIES, TIERS } from '../../lib/cpu-profile/flame-data.js'

/** @typedef {import('../../lib/cpu-profile/flame-data.js').FlameData} FlameData */
/** @typedef {import('../../lib/cpu-profile/flame-data.js').FlameMeta} FlameMeta */

/**
 * @typedef {object} FrameSpec
 * @property {string} name
 * @property {string} [file]
 * @property {number} [line]
 * @property {number} [column]
 * @property {typeof CATEGORIES[number]} [category] default 'app'
 * @property {typeof TIERS[number]} [tier] default 'unknown'
 */

export class FlameDataBuilder {
  constructor () {
    /** @type {string[]} */
    this.strings = []
    /** @type {Map<string, number>} */
    this.stringIndex = new Map()
    /** @type {Map<string, number>} */
    this.frameIndex = new Map()
    this.frames = { name: /** @type {number[]} */ ([]), file: /** @type {number[]} */ ([]), line: /** @type {number[]} */ ([]), column: /** @type {number[]} */ ([]), category: /** @type {number[]} */ ([]), tier: /** @type {number[]} */ ([]) }
    this.nodes = { frame: [-1], parent: [-1], self: [0], total: [0], inlined: [0] }
    /** @type {FlameData['sources']} */
    this.sources = {}
  }

  /** @param {string} s */
  string (s) {
    let index = this.stringIndex.get(s)
    if (index === undefined) {
      index = this.strings.push(s) - 1
      this.stringIndex.set(s, index)
    }
    return index
  }

  /** @param {FrameSpec} spec @returns {number} the frame index */
  frame (spec) {
    const key = [spec.name, spec.file ?? '', spec.line ?? 0, spec.column ?? 0].join('\0')
    let index = this.frameIndex.get(key)
    if (index !== undefined) return index
    const f = this.frames
    index = f.name.push(this.string(spec.name)) - 1
    f.file.push(spec.file === undefined ? -1 : this.string(spec.file))
    f.line.push(spec.line ?? 0)
    f.column.push(spec.column ?? 0)
    f.category.push(CATEGORIES.indexOf(spec.category ?? 'app'))
    f.tier.push(TIERS.indexOf(spec.tier ?? 'unknown'))
    this.frameIndex.set(key, index)
    return index
  }

  /**
   * Adds a node; call in preorder (a parent before its children).
   * @param {number} parent @param {number} frame @param {number} self @param {boolean} [inlined]
   */
  node (parent, frame, self, inlined = false) {
    const n = this.nodes
    n.frame.push(frame)
    n.parent.push(parent)
    n.self.push(self)
    n.total.push(0)
    return n.inlined.push(inlined ? 1 : 0) - 1
  }

  /** @param {string} file @param {string} text @param {Record<string, number>} lines */
  source (file, text, lines) {
    this.sources[String(this.string(file))] = { text, lines }
  }

  /** @param {Partial<FlameMeta>} meta @returns {FlameData} */
  finish (meta = {}) {
    const { parent, self, total } = this.nodes
    for (let i = self.length - 1; i >= 0; i--) {
      total[i] += self[i]
      if (i > 0) total[parent[i]] += total[i]
    }
    return {
      schemaVersion: 1,
      meta: {
        title: 'node app.js',
        startedAt: '2025-03-14T09:26:53.000Z',
        durationMs: 10_000,
        samples: total[0],
        idleSamples: 0,
        intervalUs: 1000,
        node: 'v24.1.0',
        v8: '13.6.233.10-node.15',
        tiersKnown: true,
        exit: { how: 'signal', code: null, signal: 'SIGINT' },
        ...meta
      },
      strings: this.strings,
      frames: this.frames,
      nodes: this.nodes,
      sources: this.sources
    }
  }
}

/**
 * @typedef {FrameSpec & { self?: number, inlined?: boolean, children?: TreeSpec[] }} TreeSpec
 */

/**
 * FlameData from a nested call tree (the root's children).
 * @param {TreeSpec[]} children
 * @param {{ meta?: Partial<FlameMeta>, sources?: { file: string, text: string, lines: Record<string, number> }[] }} [options]
 */
export function flameDataFromTree (children, options = {}) {
  const builder = new FlameDataBuilder()
  /** @param {TreeSpec} spec @param {number} parent */
  const add = (spec, parent) => {
    const id = builder.node(parent, builder.frame(spec), spec.self ?? 0, spec.inlined)
    for (const child of spec.children ?? []) add(child, id)
  }
  for (const child of children) add(child, 0)
  for (const { file, text, lines } of options.sources ?? []) builder.source(file, text, lines)
  return builder.finish(options.meta)
}
