/*
 * What the flamegraph shows, derived from the profile and the state: the call
 * tree without the hidden categories, the tree in view and its zoomed node,
 * the per-function statistics and colours, the search's matches, the marks
 * and the share of samples they cover. Each is computed again only when what
 * it depends on changed.
 */
import { formatCount, formatShare } from '../shared/format.js'
import { memoize } from '../shared/state.js'
import { diffColors, frameColors, isOptimized, isUnoptimized } from './colors.js'
import { FILTERS } from './profile.js'
import { compileQuery, coveredSamples, functionStats, markNodes, topOfStackSamples } from './stats.js'
import { buildCallTree, buildInvertedTree, followPath } from './trees.js'
/** @import { FlameState } from './actions.js' */
/** @import { ColorMode } from './colors.js' */
/** @import { FilterName, Profile } from './profile.js' */
/** @import { FunctionStats } from './stats.js' */
/** @import { Tree } from './tree-builder.js' */

/**
 * A search, compiled.
 * @typedef {object} Search
 * @property {Uint8Array | null} matches 1 for each matching frame; null when there is no query or it is invalid
 * @property {boolean} invalid whether the query is a regular expression that does not compile
 */

/** @param {Profile} profile */
export function createFlameModel (profile) {
  const { frames } = profile

  const callTree = memoize((/** @type {FilterName[]} */ hidden) => {
    const hiddenCategory = new Uint8Array(8)
    for (const name of hidden) for (const category of FILTERS[name]) hiddenCategory[category] = 1
    return buildCallTree(profile, hiddenCategory)
  })
  const stats = memoize((/** @type {Tree} */ tree) => functionStats(tree, frames.count))
  const colors = memoize((/** @type {ColorMode} */ mode, /** @type {FunctionStats} */ stats) => frameColors(mode, frames, stats))
  // A differential's change that counts: 1% of the CPU per request of the bigger side.
  const sameBelow = profile.diff ? 0.01 * Math.max(profile.diff.total.before, profile.diff.total.after) : 0
  const changes = memoize((/** @type {Tree} */ tree, /** @type {boolean} */ inverted) => diffColors(tree, inverted, sameBelow))
  const search = memoize((/** @type {string} */ query) => {
    try {
      return { matches: compileQuery(query, frames), invalid: false }
    } catch {
      return { matches: null, invalid: true }
    }
  })
  const invertedRoot = memoize((/** @type {Tree} */ call) => buildInvertedTree(call, []))
  const view = memoize((/** @type {Tree} */ call, /** @type {boolean} */ inverted, /** @type {number[]} */ path) => {
    if (!inverted) return { tree: call, zoom: followPath(call, path) }
    return path.length === 0 ? invertedRoot(call) : buildInvertedTree(call, path)
  })

  /** @param {Tree} tree @param {Search} search @param {FlameState['highlight']} highlight */
  function marksOf (tree, search, highlight) {
    const { matches } = search
    if (!matches && !highlight) return null
    const tierTest = highlight === 'optimized' ? isOptimized : highlight === 'unoptimized' ? isUnoptimized : null
    return markNodes(tree, (i) => {
      const f = tree.frame[i]
      return (!matches || matches[f] === 1) && (!tierTest || tierTest(frames.tier[f], tree.inlined[i]))
    })
  }
  // The share is counted on the call tree; the inverted view draws marks of its own tree.
  const callMarks = memoize(marksOf)
  const viewMarks = memoize(marksOf)

  const model = {
    /** @param {FlameState} state */
    callTree: (state) => callTree(state.hidden),
    /** @param {FlameState} state */
    stats: (state) => stats(model.callTree(state)),
    /** @param {FlameState} state */
    colors: (state) => colors(state.colorBy, model.stats(state)),
    /** per node of the tree in view, how its self time changed; null but in a differential's diff colours @param {FlameState} state */
    changes: (state) => state.colorBy === 'diff' && profile.diff ? changes(model.view(state).tree, state.inverted) : null,
    /** @param {FlameState} state @returns {Search} */
    search: (state) => search(state.query),
    /** the tree in view and its zoomed node @param {FlameState} state */
    view: (state) => view(model.callTree(state), state.inverted, state.zoom),
    /** @param {FlameState} state */
    marks: (state) => {
      const { tree } = model.view(state)
      return (state.inverted ? viewMarks : callMarks)(tree, model.search(state), state.highlight)
    },
    /** What the search or the highlight covers, as a line of text; '' when there is neither. @param {FlameState} state */
    share (state) {
      const { matches, invalid } = model.search(state)
      if (invalid) return 'invalid regular expression'
      if (!matches && !state.highlight) return ''
      const call = model.callTree(state)
      const all = call.total[0]
      const marks = callMarks(call, model.search(state), state.highlight)
      if (!marks) return 'no match'
      if (state.highlight) {
        const top = topOfStackSamples(call, marks, 0)
        return state.highlight + (matches ? ' matches' : ' code') + ' on top of the stack: ' + formatShare(top, all) + ' of samples (' + formatCount(top) + ')'
      }
      const covered = coveredSamples(call, marks, 0)
      let text = 'matches: ' + formatShare(covered, all) + ' of samples (' + formatCount(covered) + ')'
      // Only in the flame view: the inverted tree folds thin callers away, so it cannot count them.
      const { zoom } = model.view(state)
      if (zoom !== 0 && !state.inverted) {
        text += ', ' + formatShare(coveredSamples(call, marks, zoom), call.total[zoom]) + ' of the zoomed frame'
      }
      return text
    }
  }
  return model
}
