/**
 * Interned strings: each distinct string once, referred to by its index.
 * FlameData's frames name their function and file this way.
 */
export class StringTable {
  constructor () {
    /** @type {string[]} */
    this.strings = []
    /** @type {Map<string, number>} */
    this.indexes = new Map()
  }

  /** @param {string} s @returns {number} its index, added when new */
  intern (s) {
    let i = this.indexes.get(s)
    if (i === undefined) {
      i = this.strings.push(s) - 1
      this.indexes.set(s, i)
    }
    return i
  }
}
