/* The page's controls (toolbar, keyboard, pointer on the canvas) and the legend. */
/* exported wireControls, renderLegend */
/* global legendItems */

/** Connects the controls to the report's actions; they hold no state of their own. */
function wireControls (actions) {
  const $ = (id) => document.getElementById(id)
  const canvas = $('flame')
  const search = $('search')
  canvas.addEventListener('mousemove', actions.hover)
  canvas.addEventListener('mouseleave', actions.leave)
  canvas.addEventListener('click', actions.click)
  search.addEventListener('input', () => actions.setQuery(search.value))
  $('view-flame').addEventListener('click', () => actions.setView(false))
  $('view-inverted').addEventListener('click', () => actions.setView(true))
  $('color-by').addEventListener('change', (event) => actions.setColorBy(event.target.value))
  $('highlight-optimized').addEventListener('click', () => actions.setHighlight('optimized'))
  $('highlight-unoptimized').addEventListener('click', () => actions.setHighlight('unoptimized'))
  $('theme').addEventListener('click', actions.toggleTheme)
  for (const box of document.querySelectorAll('#filters input')) {
    box.addEventListener('change', () => actions.setFilter(box.dataset.filter, box.checked))
  }
  document.addEventListener('keydown', (event) => {
    if (event.key === '/' && document.activeElement !== search) {
      event.preventDefault()
      search.focus()
    } else if (event.key === 'Escape') {
      if (document.activeElement === search && search.value) {
        search.value = ''
        actions.setQuery('')
      } else {
        actions.zoomOut()
      }
    }
  })
}

/** What the colours of `mode` mean, and how to use the flamegraph. */
function renderLegend (element, mode) {
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
    'click: zoom and show source · /: search · Esc: zoom out'
  element.replaceChildren(...items, hint)
}
