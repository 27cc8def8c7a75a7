/* Per-function totals, search matching and the share of samples a set of nodes covers. */
/** @import { Frames } from './profile.js' */
/** @import { Tree } from './tree-builder.js' */

/** @typedef {ReturnType<typeof functionStats>} FunctionStats */

/**
 * Self and total samples per frame. A recursive function's total counts each
 * sample once: a node adds its total only when no caller above it runs the
 * same function.
 * @param {Tree} tree
 * @param {number} frameCount
 */
export function functionStats (tree, frameCount) {
  const self = new Float64Array(frameCount)
  const total = new Float64Array(frameCount)
  const onStack = new Int32Array(frameCount)
  const open = new Int32Array(tree.maxDepth + 1)
  let depth = 0
  for (let i = 1; i < tree.count; i++) {
    while (depth > 0 && tree.end[open[depth - 1]] <= i) onStack[tree.frame[open[--depth]]]--
    const f = tree.frame[i]
    self[f] += tree.self[i]
    if (onStack[f] === 0) total[f] += tree.total[i]
    onStack[f]++
    open[depth++] = i
  }
  let maxSelf = 0
  for (let f = 0; f < frameCount; f++) if (self[f] > maxSelf) maxSelf = self[f]
  return { self, total, maxSelf }
}

/**
 * Which frames a search matches: a case-insensitive substring of the function
 * name or the file, or a regular expression written as /re/flags.
 * Returns null for an empty query; throws on an invalid expression.
 * @param {string} query
 * @param {Frames} frames
 * @returns {Uint8Array | null} 1 for each matching frame
 */
export function compileQuery (query, frames) {
  const text = query.trim()
  if (!text) return null
  const re = /^\/(.+)\/([a-z]*)$/.exec(text)
  /** @type {(text: string) => boolean} */
  let test
  if (re) {
    const pattern = new RegExp(re[1], re[2].replace(/[gy]/g, ''))
    test = (s) => pattern.test(s)
  } else {
    const needle = text.toLowerCase()
    test = (s) => s.toLowerCase().includes(needle)
  }
  const matches = new Uint8Array(frames.count)
  for (let f = 0; f < frames.count; f++) {
    matches[f] = test(frames.name[f]) || (frames.file[f] !== '' && test(frames.file[f])) ? 1 : 0
  }
  return matches
}

/**
 * Marks the nodes for which `isMarked(node)` holds; null when none is.
 * @param {Tree} tree
 * @param {(node: number) => boolean} isMarked
 */
export function markNodes (tree, isMarked) {
  const marks = new Uint8Array(tree.count)
  let any = false
  for (let i = 1; i < tree.count; i++) {
    if (isMarked(i)) { marks[i] = 1; any = true }
  }
  return any ? marks : null
}

/**
 * Samples with at least one marked node on the stack, within `under`'s
 * subtree: a marked node counts its total and its subtree is skipped, so
 * nested matches (recursion, a match calling a match) count once.
 * @param {Tree} tree
 * @param {Uint8Array} marks
 * @param {number} under
 */
export function coveredSamples (tree, marks, under) {
  let sum = 0
  const stop = tree.end[under]
  for (let i = under; i < stop;) {
    if (marks[i]) {
      sum += tree.total[i]
      i = tree.end[i]
    } else {
      i++
    }
  }
  return sum
}

/**
 * Samples whose top of stack is a marked node, within `under`'s subtree.
 * @param {Tree} tree
 * @param {Uint8Array} marks
 * @param {number} under
 */
export function topOfStackSamples (tree, marks, under) {
  let sum = 0
  for (let i = under; i < tree.end[under]; i++) if (marks[i]) sum += tree.self[i]
  return sum
}
