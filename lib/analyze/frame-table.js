import { relative } from 'node:path'
import { APP, categorize, urlToPath } from './categorize.js'
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
   */
  constructor ({ cwd, tiers }) {
    this.cwd = cwd
    this.tiers = tiers
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

  /** @param {CallFrame} cf @returns {number} the frame's index, added when new */
  of (cf) {
    const key = frameKey(cf)
    let i = this.indexes.get(key)
    if (i !== undefined) return i
    const { columns, strings } = this
    i = columns.name.length
    this.indexes.set(key, i)
    this.keys.push(key)
    const category = categorize(cf)
    const path = urlToPath(cf.url)
    const shown = path !== null && category === APP ? relative(this.cwd, path) || path : (path ?? cf.url)
    this.appPaths.push(category === APP ? path : null)
    columns.name.push(strings.intern(cf.functionName || '(anonymous)'))
    columns.file.push(cf.url ? strings.intern(shown) : -1)
    columns.line.push(cf.url ? cf.lineNumber + 1 : 0)
    columns.column.push(cf.url ? cf.columnNumber + 1 : 0)
    columns.category.push(category)
    columns.tier.push(this.tiers?.get(key) ?? 0)
    return i
  }
}
