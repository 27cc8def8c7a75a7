import { relative } from 'node:path'
import { APP, UNIT, categorize, urlToPath } from './categorize.js'
import { frameKey } from './cpuprofile.js'
import { StringTable } from './string-table.js'

/** @typedef {import('./cpuprofile.js').CallFrame} CallFrame */

/**
 * FlameData's frames: each distinct function once (name, file, line,
 * column, category, tier), found again by its frame key.
 */
export class FrameTable {
  /**
   * @param {object} options
   * @param {string} options.cwd the app's folder: app file paths are shown relative to it
   * @param {Map<string, number> | null} options.tiers frame key -> index into TIERS, when V8 told
   * @param {import('./source-maps.js').SourceMapper | null} [options.mapper] shows frames as written, where scripts have source maps
   */
  constructor ({ cwd, tiers, mapper = null }) {
    this.cwd = cwd
    this.tiers = tiers
    this.mapper = mapper
    this.strings = new StringTable()
    /** @type {import('./flame-data.js').FlameFrames} */
    this.columns = { name: [], file: [], line: [], column: [], category: [], tier: [] }
    /** @type {Map<string, number>} */
    this.indexes = new Map()
    /** @type {string[]} frame keys, by frame */
    this.keys = []
    /** @type {(string | null)[]} the file on disk, by frame, for app frames */
    this.appPaths = []
  }

  /**
   * A frame is known by where it ran (its key, which the tiers use too), and
   * shown as written: through its script's source map, when there is one.
   * @param {CallFrame} ran
   * @returns {number} the frame's index, added when new
   */
  of (ran) {
    const key = frameKey(ran)
    let i = this.indexes.get(key)
    if (i !== undefined) return i
    const cf = this.mapper ? this.mapper.frame(ran) : ran
    const category = categorize(cf)
    const path = urlToPath(cf.url)
    const file = path !== null && category === APP ? relative(this.cwd, path) || path : (path ?? cf.url)
    i = this.add(key, {
      name: cf.functionName || '(anonymous)',
      file: cf.url ? file : null,
      line: cf.url ? cf.lineNumber + 1 : 0,
      column: cf.url ? cf.columnNumber + 1 : 0,
      category,
      tier: this.tiers?.get(key) ?? 0
    })
    this.appPaths[i] = category === APP ? path : null
    return i
  }

  /**
   * The frame that stands for one process or thread of the app, above its
   * calls, when a profile holds several.
   * @param {string} label e.g. "pid 4312 · server.js"
   */
  unit (label) {
    const key = `\u0001unit\u0000${label}`
    return this.indexes.get(key) ?? this.add(key, { name: label, file: null, line: 0, column: 0, category: UNIT, tier: 0 })
  }

  /**
   * @param {string} key
   * @param {{ name: string, file: string | null, line: number, column: number, category: number, tier: number }} frame
   */
  add (key, frame) {
    const { columns, strings } = this
    const i = columns.name.length
    this.indexes.set(key, i)
    this.keys.push(key)
    this.appPaths.push(null)
    columns.name.push(strings.intern(frame.name))
    columns.file.push(frame.file === null ? -1 : strings.intern(frame.file))
    columns.line.push(frame.line)
    columns.column.push(frame.column)
    columns.category.push(frame.category)
    columns.tier.push(frame.tier)
    return i
  }
}
