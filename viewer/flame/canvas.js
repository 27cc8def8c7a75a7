/*
 * Draws a tree as a flamegraph (root at the bottom) or an icicle (inverted
 * view, root at the top) on one canvas, and finds the frame under a point.
 * Only what is on screen is drawn: a frame narrower than a pixel is skipped
 * with all its callees, and so is a frame beyond the visible rows.
 */
import { inlinedTierColor } from './colors.js'
/** @import { ColorMode } from './colors.js' */
/** @import { Tree } from './tree-builder.js' */

/**
 * @typedef {object} FlameScene what to draw
 * @property {Tree} tree
 * @property {number} zoom the node that fills the width
 * @property {boolean} inverted root at the top
 * @property {Uint8Array | null} marks 1 for each node the search or highlight keeps; null when nothing is dimmed
 * @property {string[]} colors a CSS colour per frame
 * @property {string[] | null} nodeColors a CSS colour per node of `tree`, in place of `colors` (a differential); null otherwise
 * @property {ColorMode} colorBy
 * @property {number} selectedFrame outlined wherever it runs; -1 for none
 * @property {{ root: string, short: (frame: number) => string, full: (frame: number) => string }} labels
 */

/**
 * The colours of the theme that the canvas draws with.
 * @typedef {{ background: string, root: string, rootText: string, text: string, dim: string, dimText: string, selected: string }} FlameTheme
 */

const ROW_HEIGHT = 18
const MIN_WIDTH = 1
/** the box's top and bottom borders (style.css) */
const BOX_BORDERS = 2
const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'

/**
 * @param {HTMLElement} scroller the box, which scrolls a tree deeper than it
 * @param {HTMLCanvasElement} canvas as big as the box, sticky in it
 * @param {HTMLElement} spacer below the canvas, as tall as the rows that do not fit
 */
export function createFlameCanvas (scroller, canvas, spacer) {
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'))
  let width = 0
  let height = 0
  let boxHeight = 0
  // Kept from scroll events: reading scrollTop while drawing would force a layout of the whole page.
  let scrollTop = 0
  /** @type {FlameScene | null} */
  let scene = null
  /** @type {FlameTheme | null} */
  let theme = null
  /** @type {Map<string, number>} */
  let labelWidth = new Map()
  /** @type {Map<string, string>} */
  let fitted = new Map()
  let framesDrawn = 0

  /** Sizes the canvas to the box; a resize costs a new backing store, so only when it changed. */
  function measure () {
    const ratio = window.devicePixelRatio || 1
    width = scroller.clientWidth
    height = scroller.clientHeight
    if (canvas.width === Math.round(width * ratio) && canvas.height === Math.round(height * ratio)) return
    canvas.width = Math.round(width * ratio)
    canvas.height = Math.round(height * ratio)
    // A resize resets the context. Setting the font resolves styles, so it is set here, not per draw.
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0)
    ctx.font = FONT
    ctx.textBaseline = 'middle'
  }

  /** the height of the tree's rows, with a little room above and below @param {Tree} tree */
  const rowsHeight = (tree) => (tree.maxDepth + 1) * ROW_HEIGHT + 6

  /** @param {FlameScene} scene */
  function contentHeight (scene) {
    return Math.max(height, rowsHeight(scene.tree))
  }

  /** top of a depth's row, in canvas pixels @param {FlameScene} scene @param {number} depth */
  function rowTop (scene, depth) {
    const y = scene.inverted ? depth * ROW_HEIGHT + 2 : contentHeight(scene) - 2 - (depth + 1) * ROW_HEIGHT
    return y - scrollTop
  }

  /** @param {FlameScene} scene @param {number} y */
  function depthAt (scene, y) {
    const contentY = y + scrollTop
    return Math.floor(scene.inverted ? (contentY - 2) / ROW_HEIGHT : (contentHeight(scene) - 2 - contentY) / ROW_HEIGHT)
  }

  /** @param {string} text */
  function textWidth (text) {
    let w = labelWidth.get(text)
    if (w === undefined) {
      w = ctx.measureText(text).width
      if (labelWidth.size > 50_000) labelWidth = new Map()
      labelWidth.set(text, w)
    }
    return w
  }

  /**
   * the label, cut with an ellipsis to fit `room` pixels, or ''
   * @param {string} full
   * @param {string} short
   * @param {number} room
   */
  function fitLabel (full, short, room) {
    if (room < 14) return ''
    if (textWidth(full) <= room) return full
    if (textWidth(short) <= room) return short
    const key = short + '\u0000' + Math.floor(room)
    let cut = fitted.get(key)
    if (cut === undefined) {
      let chars = Math.floor(short.length * room / textWidth(short))
      while (chars > 1 && textWidth(short.slice(0, chars) + '…') > room) chars--
      cut = chars > 1 ? short.slice(0, chars) + '…' : ''
      if (fitted.size > 50_000) fitted = new Map()
      fitted.set(key, cut)
    }
    return cut
  }

  /**
   * @param {FlameScene} scene
   * @param {FlameTheme} theme
   * @param {number} i the node
   * @param {number} x
   * @param {number} w
   * @param {number} y
   */
  function drawFrame (scene, theme, i, x, w, y) {
    const { tree, marks, colors, nodeColors, colorBy, selectedFrame, labels } = scene
    const f = tree.frame[i]
    const dim = marks !== null && !marks[i]
    let fill = theme.root
    if (dim) fill = theme.dim
    else if (i !== 0) fill = nodeColors ? nodeColors[i] : colorBy === 'tier' && tree.inlined[i] ? inlinedTierColor() : colors[f]
    ctx.fillStyle = fill
    ctx.fillRect(x, y, w > 3 ? w - 1 : w, ROW_HEIGHT - 1)
    if (w > 10 && tree.inlined[i]) {
      ctx.fillStyle = dim ? theme.dimText : 'rgba(0, 0, 0, 0.55)'
      ctx.beginPath()
      ctx.moveTo(x, y)
      ctx.lineTo(x + 6, y)
      ctx.lineTo(x, y + 6)
      ctx.fill()
    }
    if (f === selectedFrame && i !== 0) {
      ctx.strokeStyle = theme.selected
      ctx.lineWidth = 2
      ctx.strokeRect(x + 1, y + 1, Math.max(w - 3, 1), ROW_HEIGHT - 3)
    }
    const label = i === 0 ? labels.root : fitLabel(labels.full(f), labels.short(f), w - 8)
    if (label) {
      ctx.fillStyle = i === 0 ? theme.rootText : dim ? theme.dimText : theme.text
      ctx.fillText(i === 0 ? fitLabel(label, label, w - 8) : label, x + 4, y + ROW_HEIGHT / 2)
    }
  }

  function draw () {
    if (!scene || !theme || !width) return
    const { tree, zoom } = scene
    ctx.fillStyle = theme.background
    ctx.fillRect(0, 0, width, height)
    framesDrawn = 0
    if (!tree.total[zoom]) return
    const x0 = tree.x[zoom]
    const scale = width / tree.total[zoom]
    for (let a = tree.parent[zoom]; a >= 0; a = tree.parent[a]) {
      const y = rowTop(scene, tree.depth[a])
      if (y < height && y + ROW_HEIGHT > 0) { drawFrame(scene, theme, a, 0, width, y); framesDrawn++ }
    }
    const end = tree.end[zoom]
    for (let i = zoom; i < end;) {
      const w = tree.total[i] * scale
      const y = rowTop(scene, tree.depth[i])
      if (w < MIN_WIDTH || (scene.inverted ? y >= height : y + ROW_HEIGHT <= 0)) {
        i = tree.end[i]
        continue
      }
      if (y < height && y + ROW_HEIGHT > 0) { drawFrame(scene, theme, i, (tree.x[i] - x0) * scale, w, y); framesDrawn++ }
      i++
    }
  }

  /** the node drawn at canvas point (x, y), or -1 @param {number} x @param {number} y */
  function nodeAt (x, y) {
    if (!scene || x < 0 || x >= width) return -1
    const { tree, zoom } = scene
    const depth = depthAt(scene, y)
    if (depth < 0 || depth > tree.maxDepth) return -1
    if (depth < tree.depth[zoom]) {
      let a = zoom
      while (tree.depth[a] > depth) a = tree.parent[a]
      return a
    }
    const scale = width / tree.total[zoom]
    const at = tree.x[zoom] + x / scale
    let node = zoom
    while (tree.depth[node] < depth) {
      let found = -1
      for (let c = node + 1; c < tree.end[node]; c = tree.end[c]) {
        if (at >= tree.x[c] && at < tree.x[c] + tree.total[c]) { found = c; break }
      }
      if (found < 0) return -1
      node = found
    }
    return tree.total[node] * scale >= MIN_WIDTH ? node : -1
  }

  /** where a node is drawn, in canvas pixels, or null when it is not in view @param {number} node */
  function frameRect (node) {
    if (!scene) return null
    const { tree, zoom } = scene
    let inZoom = node >= zoom && node < tree.end[zoom]
    for (let a = tree.parent[zoom]; a >= 0 && !inZoom; a = tree.parent[a]) inZoom = a === node
    if (!inZoom) return null
    const scale = width / tree.total[zoom]
    const isAncestor = node < zoom
    const x = isAncestor ? 0 : (tree.x[node] - tree.x[zoom]) * scale
    const w = isAncestor ? width : tree.total[node] * scale
    const y = rowTop(scene, tree.depth[node])
    if (w < MIN_WIDTH || y + ROW_HEIGHT <= 0 || y >= height) return null
    return { x, y, width: w, height: ROW_HEIGHT }
  }

  /** scrolls so that `node`'s row shows, with a few rows of callers @param {number} node */
  function reveal (node) {
    if (!scene) return
    const depth = scene.tree.depth[node]
    const content = contentHeight(scene)
    const top = scene.inverted ? (depth - 3) * ROW_HEIGHT : content - (depth + 1) * ROW_HEIGHT - height + 4 * ROW_HEIGHT
    scroller.scrollTop = Math.max(0, Math.min(content - height, top))
    scrollTop = scroller.scrollTop
    draw()
  }

  /**
   * The box asks for the height of the tree's rows, so a shallow tree leaves
   * no empty band; style.css caps it, and a deeper tree scrolls.
   * @param {FlameScene} next
   */
  function setScene (next) {
    scene = next
    const wanted = rowsHeight(scene.tree) + BOX_BORDERS
    if (wanted !== boxHeight) {
      boxHeight = wanted
      scroller.style.height = wanted + 'px'
      measure()
    }
    spacer.style.height = (contentHeight(scene) - height) + 'px'
    draw()
  }

  /** @param {FlameTheme} colors */
  function setTheme (colors) {
    theme = colors
    draw()
  }

  let pending = false
  const drawSoon = () => {
    if (pending) return
    pending = true
    requestAnimationFrame(() => { pending = false; draw() })
  }
  scroller.addEventListener('scroll', () => {
    scrollTop = scroller.scrollTop
    drawSoon()
  })
  // Also when the window's height moves the box's cap.
  new ResizeObserver(() => {
    measure()
    if (scene) setScene(scene)
  }).observe(scroller)
  measure()

  return { setScene, setTheme, draw, nodeAt, frameRect, reveal, stats: () => ({ framesDrawn, width, height }) }
}
