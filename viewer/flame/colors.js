/* Frame colours: a warm heat ramp (0x-like), categories, and optimization tiers. */
/* exported frameColors, inlinedTierColor, legendItems, isOptimized, isUnoptimized */
/* global CATEGORY, FLAME_TABLES */

/** @typedef {'heat' | 'category' | 'tier'} ColorMode */

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

/** @param {number} tier @param {number} inlined */
function isOptimized (tier, inlined) {
  return inlined === 1 || tier === TIER.maglev || tier === TIER.turbofan
}

/** @param {number} tier @param {number} inlined */
function isUnoptimized (tier, inlined) {
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
function frameColors (mode, frames, stats) {
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

/** An inlined call ran inside its caller's optimized code. */
function inlinedTierColor () {
  return TIER_COLORS[TIER.turbofan]
}

/**
 * What the colours of a mode mean, as [label, css colour or gradient] pairs.
 * @param {ColorMode} mode
 * @returns {[string, string][]}
 */
function legendItems (mode) {
  if (mode === 'tier') {
    return [['Turbofan', TIER_COLORS[4]], ['Maglev', TIER_COLORS[3]], ['baseline (Sparkplug)', TIER_COLORS[2]], ['interpreted', TIER_COLORS[1]], ['unknown / native', TIER_COLORS[0]]]
  }
  if (mode === 'category') {
    return ['app', 'deps', 'core', 'native', 'gc', '(program)', 'process'].map((label, i) => [label, hsl(...CATEGORY_COLORS[i])])
  }
  const gradient = (/** @type {keyof typeof HEAT_RAMPS} */ family) => 'linear-gradient(to right, ' + HEAT_PALETTES[family][0] + ', ' + HEAT_PALETTES[family][HEAT_STEPS - 1] + ')'
  return [['app', gradient('app')], ['deps', gradient('deps')], ['core', gradient('core')], ['native, gc', gradient('native')]]
}
