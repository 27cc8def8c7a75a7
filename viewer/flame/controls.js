/* The page's controls (toolbar, keyboard, pointer on the canvas) and the legend. */
import { legendItems } from './colors.js'
/** @import { FlameActions } from './actions.js' */
/** @import { ColorMode } from './colors.js' */
/** @import { FilterName } from './profile.js' */

/**
 * Connects the controls to the report's actions; they hold no state of their own.
 * @param {FlameActions} actions
 * @param {{ hover: (event: MouseEvent) => void, leave: () => void, click: (event: MouseEvent) => void }} pointer on the canvas
 */
export function wireControls (actions, pointer) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id))
  const canvas = $('flame')
  const search = /** @type {HTMLInputElement} */ ($('search'))
  canvas.addEventListener('mousemove', pointer.hover)
  canvas.addEventListener('mouseleave', pointer.leave)
  canvas.addEventListener('click', pointer.click)
  search.addEventListener('input', () => actions.search(search.value))
  $('view-flame').addEventListener('click', () => actions.invert(false))
  $('view-inverted').addEventListener('click', () => actions.invert(true))
  const colorBy = /** @type {HTMLSelectElement} */ ($('color-by'))
  colorBy.addEventListener('change', () => actions.colorBy(/** @type {ColorMode} */ (colorBy.value)))
  $('highlight-optimized').addEventListener('click', () => actions.highlight('optimized'))
  $('highlight-unoptimized').addEventListener('click', () => actions.highlight('unoptimized'))
  $('theme').addEventListener('click', () => actions.toggleTheme())
  for (const box of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('#filters input'))) {
    box.addEventListener('change', () => actions.filter(/** @type {FilterName} */ (box.dataset.filter), box.checked))
  }
  document.addEventListener('keydown', (event) => {
    if (event.key === '/' && document.activeElement !== search) {
      event.preventDefault()
      search.focus()
    } else if (event.key === 'Escape') {
      if (document.activeElement === search && search.value) {
        search.value = ''
        actions.search('')
      } else {
        actions.zoom([])
      }
    }
  })
}

/**
 * What the colours of `mode` mean, and how to use the flamegraph.
 * @param {HTMLElement} element
 * @param {ColorMode} mode
 */
export function renderLegend (element, mode) {
  const items = legendItems(mode).map(([label, color]) => {
    const item = document.createElement('span')
    const swatch = document.createElement('i')
    swatch.className = color.startsWith('linear') ? 'ramp' : 'swatch'
    swatch.style.background = color
    item.append(swatch, label)
    return item
  })
  const hint = document.createElement('span')
  hint.textContent = '◤ inlined call · width: time on stack · ' + (mode === 'heat' ? 'heat: time on top of the stack · ' : '') +
    (mode === 'diff' ? 'colour: time on top of the stack per request, against the same stack before · ' : '') +
    'click: zoom and show source · /: search · Esc: zoom out'
  element.replaceChildren(...items, hint)
}
