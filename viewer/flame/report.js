/*
 * The flamegraph report: the state, and the views that draw each part of the
 * page from it. Each view names the fields it draws; what it draws comes from
 * the model, computed once per change.
 */
import { fineMs } from '../../lib/format.js'
import { formatCount } from '../shared/format.js'
import { renderHeader, runFacts } from '../shared/header.js'
import { createStore } from '../shared/state.js'
import { applyTheme, preferredTheme } from '../shared/theme.js'
import { createTooltip } from '../shared/tooltip.js'
import { flameActions, flameState } from './actions.js'
import { createFlameCanvas } from './canvas.js'
import { renderChanges } from './changes-table.js'
import { DIFF_KINDS } from './colors.js'
import { renderLegend, wireControls } from './controls.js'
import { describeFrame } from './frame-tooltip.js'
import { createFunctionTable } from './functions-table.js'
import { createFlameModel } from './model.js'
import { amountText, countText, readProfile } from './profile.js'
import { createSourcePanel } from './source.js'
import { ancestorsOf, pathTo } from './trees.js'
/** @import { Profile } from './profile.js' */
/** @import { Tree } from './tree-builder.js' */

export function startReport () {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id))
  const profile = readProfile($('flame-data').textContent ?? '')
  const { frames, meta } = profile
  const tiersKnown = meta.tiersKnown !== false
  const model = createFlameModel(profile)
  // A differential is coloured by its changes at first.
  const store = createStore(flameState(preferredTheme(), profile.diff ? 'diff' : 'heat'), flameActions)
  const { actions } = store

  const canvas = /** @type {HTMLCanvasElement} */ ($('flame'))
  const flame = createFlameCanvas($('flame-scroll'), canvas, $('flame-spacer'))
  const tooltip = createTooltip($('tooltip'))
  const table = createFunctionTable(/** @type {HTMLTableElement} */ ($('functions')), $('functions-count'), /** @type {HTMLButtonElement} */ ($('functions-more')), actions.select, countText(meta))
  const source = createSourcePanel($('source-title'), $('source-note'), $('source-lines'))
  const labels = frameLabels(profile)
  /** @param {string} id @param {boolean} pressed */
  const press = (id, pressed) => $(id).setAttribute('aria-pressed', String(pressed))
  // A profile of several processes or threads can be split by them.
  $('filter-processes').hidden = (meta.units?.length ?? 0) < 2
  if (profile.diff) showDiff(profile.diff)

  store.view(['theme'], (state) => {
    const css = applyTheme(state.theme, $('theme'))
    flame.setTheme({ background: css('--bg'), root: css('--raised'), rootText: css('--text'), text: css('--frame-text'), dim: css('--frame-dim'), dimText: css('--frame-dim-text'), selected: css('--selected') })
  })
  store.view(['inverted'], (state) => {
    press('view-flame', !state.inverted)
    press('view-inverted', state.inverted)
  })
  store.view(['highlight'], (state) => {
    press('highlight-optimized', state.highlight === 'optimized')
    press('highlight-unoptimized', state.highlight === 'unoptimized')
  })
  store.view(['colorBy'], (state) => {
    /** @type {HTMLSelectElement} */ ($('color-by')).value = state.colorBy
    renderLegend($('legend'), state.colorBy)
  })
  store.view(['hidden', 'query'], (state) => {
    table.update({ frames, stats: model.stats(state), matches: model.search(state).matches, all: model.callTree(state).total[0], tiersKnown })
  })
  store.view(['selected'], (state) => {
    if (state.selected < 0) return
    table.select(state.selected)
    source.show(profile, state.selected, model.callTree(state).total[0])
  })
  store.view(['hidden', 'inverted', 'zoom', 'query', 'highlight', 'colorBy', 'selected'], (state) => {
    const { tree, zoom } = model.view(state)
    flame.setScene({ tree, zoom, inverted: state.inverted, marks: model.marks(state), colors: model.colors(state), nodeColors: model.changes(state)?.colors ?? null, colorBy: state.colorBy, selectedFrame: state.selected, labels })
  })
  store.view(['hidden', 'inverted', 'zoom'], (state) => {
    const { tree, zoom } = model.view(state)
    renderBreadcrumbs(tree, zoom)
    flame.reveal(zoom)
  })
  store.view(['hidden', 'inverted', 'zoom', 'query', 'highlight'], (state) => {
    $('search-share').textContent = model.share(state)
  })

  /** @param {Tree} tree @param {number} zoom */
  function renderBreadcrumbs (tree, zoom) {
    const path = [0, ...ancestorsOf(tree, zoom)]
    const crumb = (/** @type {number} */ node) => {
      const button = document.createElement('button')
      button.type = 'button'
      button.textContent = node === 0 ? 'all' : frames.name[tree.frame[node]]
      button.title = button.textContent
      if (node === zoom) button.setAttribute('aria-current', 'true')
      button.addEventListener('click', () => actions.zoom(pathTo(tree, node)))
      return button
    }
    const separator = (/** @type {string} */ text) => {
      const span = document.createElement('span')
      span.className = 'sep'
      span.textContent = text
      return span
    }
    const shown = path.length > 10 ? [...path.slice(0, 3), -1, ...path.slice(-6)] : path
    /** @type {HTMLElement[]} */
    const items = []
    shown.forEach((node, i) => {
      if (i > 0) items.push(separator('›'))
      items.push(node === -1 ? separator('…') : crumb(node))
    })
    $('breadcrumbs').replaceChildren(...items)
  }

  const currentTree = () => model.view(store.state).tree
  const nodeAt = (/** @type {MouseEvent} */ event) => {
    const box = canvas.getBoundingClientRect()
    return flame.nodeAt(event.clientX - box.left, event.clientY - box.top)
  }
  wireControls(actions, {
    hover (event) {
      const node = nodeAt(event)
      if (node < 0) return tooltip.hide()
      const { state } = store
      tooltip.show(event.clientX, event.clientY, describeFrame(profile, currentTree(), node, state.inverted, model.stats(state)))
    },
    leave: () => tooltip.hide(),
    click (event) {
      const node = nodeAt(event)
      if (node < 0) return
      const tree = currentTree()
      actions.focus(pathTo(tree, node), tree.frame[node])
    }
  })

  /**
   * A differential: its colours first in the choice, and its functions' changes.
   * @param {NonNullable<Profile['diff']>} diff
   */
  function showDiff (diff) {
    const option = document.createElement('option')
    option.value = 'diff'
    option.textContent = 'before → after'
    $('color-by').prepend(option)
    const brand = document.querySelector('.brand')
    if (brand) brand.textContent = 'dyno flame diff'
    $('changes-panel').hidden = false
    renderChanges(/** @type {HTMLTableElement} */ ($('changes')), $('changes-count'), diff)
  }

  renderHeader({ title: $('title'), facts: $('facts') }, profile.diff ? 'dyno flame diff' : 'dyno flame', meta.title, runFacts(meta, amountFacts(profile)))
  if (!tiersKnown) {
    const notice = $('notice')
    notice.textContent = 'Optimization tiers are unknown for this profile: the profiled Node did not report them, and dyno does not guess.'
    notice.hidden = false
    for (const id of ['highlight-optimized', 'highlight-unoptimized']) /** @type {HTMLButtonElement} */ ($(id)).disabled = true
    const tierOption = /** @type {HTMLOptionElement} */ ($('color-by').querySelector('option[value="tier"]'))
    tierOption.disabled = true
  }
  store.start()

  return {
    dynoFlame: {
      state: () => {
        const { state } = store
        return { inverted: state.inverted, zoom: model.view(state).zoom, query: state.query, highlight: state.highlight, colorBy: state.colorBy, hidden: [...state.hidden], selectedFrame: state.selected, theme: state.theme }
      },
      tree: currentTree,
      /** @param {string} name */
      nodesNamed: (name) => {
        const tree = currentTree()
        const nodes = []
        for (let i = 1; i < tree.count; i++) if (frames.name[tree.frame[i]] === name) nodes.push(i)
        return nodes
      },
      /** @param {number} node */
      frameRect: (node) => {
        const rect = flame.frameRect(node)
        if (!rect) return null
        const box = canvas.getBoundingClientRect()
        return { x: box.left + rect.x, y: box.top + rect.y, width: rect.width, height: rect.height }
      },
      framesDrawn: () => flame.stats().framesDrawn,
      /**
       * In a differential: how the node's time per request changed, as its colour says.
       * @param {number} node
       */
      changeOf: (node) => {
        const { state } = store
        const tree = currentTree()
        const before = state.inverted ? tree.beforeTotal : tree.before
        const changes = model.changes(state)
        if (!before || !changes) return null
        return { before: before[node], after: (state.inverted ? tree.total : tree.self)[node], kind: DIFF_KINDS[changes.kinds[node] + 1], color: changes.colors[node] }
      }
    }
  }
}

/**
 * The header's facts of what the profile counts.
 * @param {Profile} profile
 * @returns {[string, string][]}
 */
function amountFacts ({ meta, diff }) {
  if (diff) {
    return [
      ['CPU per request', fineMs(diff.total.before) + ' → ' + fineMs(diff.total.after)],
      ['requests', formatCount(diff.requests.before) + ' before, ' + formatCount(diff.requests.after) + ' after']
    ]
  }
  if (meta.unit === 'bytes') return [['allocations', amountText(meta)(meta.samples)]]
  return [
    ['samples', formatCount(meta.samples) + (meta.idleSamples ? ' (+ ' + formatCount(meta.idleSamples) + ' idle)' : '')],
    ['interval', meta.intervalUs ? (meta.intervalUs / 1000).toFixed(2) + ' ms' : 'unknown']
  ]
}

/**
 * The text of each frame's label: with its file and line when it fits, its name alone when not.
 * @param {Profile} profile
 */
function frameLabels (profile) {
  const { frames, nodes } = profile
  /** @type {string[]} */
  const full = new Array(frames.count)
  let samples = 0
  for (let i = 0; i < nodes.count; i++) samples += nodes.self[i]
  return {
    root: 'all · ' + amountText(profile.meta)(samples),
    short: (/** @type {number} */ f) => frames.name[f],
    full: (/** @type {number} */ f) => {
      if (full[f] === undefined) {
        const file = frames.file[f]
        full[f] = file ? frames.name[f] + '  ' + file.slice(file.lastIndexOf('/') + 1) + (frames.line[f] ? ':' + frames.line[f] : '') : frames.name[f]
      }
      return full[f]
    }
  }
}
