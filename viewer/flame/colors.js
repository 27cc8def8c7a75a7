/* Frame colours: a warm heat ramp (0x-like), categories, optimization tiers, and a differential's changes. */
import { CATEGORY, FLAME_TABLES } from './profile.js'
/** @import { Frames } from './profile.js' */
/** @import { FunctionStats } from './stats.js' */
/** @import { Tree } from './tree-builder.js' */

/** @typedef {'heat' | 'category' | 'tier' | 'diff'} ColorMode */

const TIER = FLAME_TABLES.tier
const HEAT_STEPS = 24

/**
 * [hue, saturation, lightness] at heat 0 and at heat 1, per family of code
 * @type {Record<'app' | 'deps' | 'core' | 'native', [number, number, number][]>}
 */
const HEAT_RAMPS = {
  app: [[55, 95, 70], [0, 90, 55]],
  deps: [[38, 85, 68], [0, 80, 52]],
  core: [[38, 35, 70], [8, 70, 54]],
  native: [[30, 8, 66], [5, 60, 52]]
}
/** @type {(keyof typeof HEAT_RAMPS)[]} */
const HEAT_FAMILY = ['app', 'deps', 'core', 'native', 'native', 'native']
/** @type {[number, number, number][]} */
const CATEGORY_COLORS = [[205, 65, 58], [275, 45, 64], [145, 40, 50], [35, 12, 60], [350, 60, 60], [35, 8, 72], [190, 15, 48]]
const TIER_COLORS = ['hsl(220 6% 62%)', 'hsl(8 78% 60%)', 'hsl(42 92% 58%)', 'hsl(168 52% 52%)', 'hsl(135 55% 47%)']
/** A differential's frames: what each kind is called, by kind + 1 (-1 shrank, 0 about the same, 1 grew). */
export const DIFF_KINDS = /** @type {const} */ (['shrank', 'same', 'grew'])
const DIFF_STEPS = 12
const DIFF_SAME = 'hsl(220 6% 66%)'
/** [hue, saturation, lightness] of the smallest and the biggest change, per direction */
const DIFF_RAMPS = { shrank: [[205, 60, 80], [215, 75, 45]], grew: [[10, 70, 80], [0, 80, 48]] }

/** @param {number} h @param {number} s @param {number} l */
const hsl = (h, s, l) => 'hsl(' + h.toFixed(1) + ' ' + s.toFixed(1) + '% ' + l.toFixed(1) + '%)'
/** @param {number} a @param {number} b @param {number} t */
const lerp = (a, b, t) => a + (b - a) * t
/** @param {keyof typeof HEAT_RAMPS} family */
const heatRamp = (family) => Array.from({ length: HEAT_STEPS }, (_, step) => {
  const t = step / (HEAT_STEPS - 1)
  const [from, to] = HEAT_RAMPS[family]
  return hsl(lerp(from[0], to[0], t), lerp(from[1], to[1], t), lerp(from[2], to[2], t))
})
const HEAT_PALETTES = { app: heatRamp('app'), deps: heatRamp('deps'), core: heatRamp('core'), native: heatRamp('native') }
/** @param {keyof typeof DIFF_RAMPS} direction */
const diffRamp = (direction) => Array.from({ length: DIFF_STEPS }, (_, step) => {
  const t = step / (DIFF_STEPS - 1)
  const [from, to] = DIFF_RAMPS[direction]
  return hsl(lerp(from[0], to[0], t), lerp(from[1], to[1], t), lerp(from[2], to[2], t))
})
const DIFF_PALETTES = { shrank: diffRamp('shrank'), grew: diffRamp('grew') }

/** @param {number} tier @param {number} inlined */
export function isOptimized (tier, inlined) {
  return inlined === 1 || tier === TIER.maglev || tier === TIER.turbofan
}

/** @param {number} tier @param {number} inlined */
export function isUnoptimized (tier, inlined) {
  return inlined === 0 && (tier === TIER.interpreted || tier === TIER.baseline)
}

/**
 * One colour per frame for the mode. Heat is the function's samples at the
 * top of the stack against the hottest function's (square root, so that
 * middling functions still show warmth).
 * @param {ColorMode} mode
 * @param {Frames} frames
 * @param {FunctionStats} stats
 * @returns {string[]} a CSS colour per frame
 */
export function frameColors (mode, frames, stats) {
  const colors = new Array(frames.count)
  for (let f = 0; f < frames.count; f++) {
    const category = frames.category[f]
    if (mode === 'tier') {
      colors[f] = TIER_COLORS[frames.tier[f]] || TIER_COLORS[0]
    } else if (mode === 'category') {
      const [h, s, l] = CATEGORY_COLORS[category] || CATEGORY_COLORS[CATEGORY.native]
      colors[f] = hsl(h, s, l + ((f * 7919) % 9) - 4)
    } else {
      const heat = stats.maxSelf ? Math.sqrt(stats.self[f] / stats.maxSelf) : 0
      colors[f] = HEAT_PALETTES[HEAT_FAMILY[category] || 'native'][Math.round(heat * (HEAT_STEPS - 1))]
    }
  }
  return colors
}

/**
 * A differential's colour per node: how its self time changed from the before
 * side (`tree.before`) to the after side (`tree.self`); in the inverted tree,
 * where a node is a function on top of the stack with some of its callers,
 * its total. A change smaller than `same` is about the same (grey); the
 * others are shaded by their size against the biggest change in the tree
 * (square root, as heat).
 * @param {Tree} tree
 * @param {boolean} inverted
 * @param {number} same the smallest change that counts, in the tree's unit
 * @returns {{ colors: string[], kinds: Int8Array }} per node; kinds: -1 shrank, 0 about the same, 1 grew
 */
export function diffColors (tree, inverted, same) {
  const colors = new Array(tree.count).fill(DIFF_SAME)
  const kinds = new Int8Array(tree.count)
  const after = inverted ? tree.total : tree.self
  const before = inverted ? tree.beforeTotal : tree.before
  if (!before) return { colors, kinds }
  let biggest = 0
  for (let i = 1; i < tree.count; i++) biggest = Math.max(biggest, Math.abs(after[i] - before[i]))
  for (let i = 1; i < tree.count; i++) {
    const change = after[i] - before[i]
    // Sampling noise: a tenth of either side's time is no change either.
    if (Math.abs(change) < same || Math.abs(change) < 0.1 * Math.max(after[i], before[i])) continue
    kinds[i] = change > 0 ? 1 : -1
    const step = Math.round(Math.sqrt(Math.abs(change) / biggest) * (DIFF_STEPS - 1))
    colors[i] = DIFF_PALETTES[change > 0 ? 'grew' : 'shrank'][step]
  }
  return { colors, kinds }
}

/** An inlined call ran inside its caller's optimized code. */
export function inlinedTierColor () {
  return TIER_COLORS[TIER.turbofan]
}

/**
 * What the colours of a mode mean, as [label, css colour or gradient] pairs.
 * @param {ColorMode} mode
 * @returns {[string, string][]}
 */
export function legendItems (mode) {
  if (mode === 'tier') {
    return [['Turbofan', TIER_COLORS[4]], ['Maglev', TIER_COLORS[3]], ['baseline (Sparkplug)', TIER_COLORS[2]], ['interpreted', TIER_COLORS[1]], ['unknown / native', TIER_COLORS[0]]]
  }
  if (mode === 'category') {
    return ['app', 'deps', 'core', 'native', 'gc', '(program)', 'process'].map((label, i) => [label, hsl(...CATEGORY_COLORS[i])])
  }
  if (mode === 'diff') {
    const ramp = (/** @type {string[]} */ palette) => 'linear-gradient(to right, ' + palette[0] + ', ' + palette[DIFF_STEPS - 1] + ')'
    return [['shrank', ramp(DIFF_PALETTES.shrank)], ['about the same', DIFF_SAME], ['grew', ramp(DIFF_PALETTES.grew)]]
  }
  const gradient = (/** @type {keyof typeof HEAT_RAMPS} */ family) => 'linear-gradient(to right, ' + HEAT_PALETTES[family][0] + ', ' + HEAT_PALETTES[family][HEAT_STEPS - 1] + ')'
  return [['app', gradient('app')], ['deps', gradient('deps')], ['core', gradient('core')], ['native, gc', gradient('native')]]
}
