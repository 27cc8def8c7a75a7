/*
 * The report's state and what each control does to it. What is derived from
 * the profile (trees, per-function stats, colours, marks) is recomputed only
 * when what it depends on changes; drawing only reads it.
 */
/* exported startReport */
/* global readProfile, FILTERS, buildCallTree, buildInvertedTree, followFrames, ancestorsOf,
   functionStats, compileQuery, markNodes, coveredSamples, topOfStackSamples,
   frameColors, isOptimized, isUnoptimized, createFlameCanvas, createTooltip, createFunctionTable,
   createSourcePanel, renderHeader, wireControls, renderLegend, formatCount, formatShare */

function startReport () {
  const $ = (id) => document.getElementById(id)
  const profile = readProfile($('flame-data').textContent)
  const { frames, meta } = profile
  const tiersKnown = meta.tiersKnown !== false
  const state = {
    hidden: new Set(),
    inverted: false,
    colorBy: 'heat',
    highlight: '',
    query: '',
    matches: null,
    selectedFrame: -1,
    zoom: 0,
    theme: 'dark',
    callTree: null,
    invertedRoot: null,
    view: null,
    stats: null,
    colors: null,
    marks: null
  }
  const flame = createFlameCanvas($('flame-scroll'), $('flame'), $('flame-spacer'))
  const tooltip = createTooltip($('tooltip'))
  const table = createFunctionTable($('functions'), $('functions-count'), $('functions-more'), (f) => select(f))
  const source = createSourcePanel($('source-title'), $('source-note'), $('source-lines'))
  const labels = frameLabels()

  function frameLabels () {
    const full = new Array(frames.count)
    let samples = 0
    for (let i = 0; i < profile.nodes.count; i++) samples += profile.nodes.self[i]
    return {
      root: 'all · ' + formatCount(samples) + ' samples',
      short: (f) => frames.name[f],
      full: (f) => {
        if (full[f] === undefined) {
          const file = frames.file[f]
          full[f] = file ? frames.name[f] + '  ' + file.slice(file.lastIndexOf('/') + 1) + (frames.line[f] ? ':' + frames.line[f] : '') : frames.name[f]
        }
        return full[f]
      }
    }
  }

  function currentTree () {
    return state.view
  }

  /** Shows the view's tree zoomed along `path` (frames from the root); the inverted one is built for it. */
  function showPath (path) {
    if (!state.inverted) {
      state.view = state.callTree
      state.zoom = followFrames(state.callTree, path)
    } else if (path.length === 0) {
      state.invertedRoot ??= buildInvertedTree(state.callTree, frames.count, []).tree
      state.view = state.invertedRoot
      state.zoom = 0
    } else {
      const { tree, zoom } = buildInvertedTree(state.callTree, frames.count, path)
      state.view = tree
      state.zoom = zoom
    }
  }

  const framesTo = (node) => ancestorsOf(state.view, node).map((n) => state.view.frame[n])

  function marksFor (tree) {
    const { matches, highlight } = state
    if (!matches && !highlight) return null
    const tierTest = highlight === 'optimized' ? isOptimized : highlight === 'unoptimized' ? isUnoptimized : null
    return markNodes(tree, (i) => {
      const f = tree.frame[i]
      return (!matches || matches[f] === 1) && (!tierTest || tierTest(frames.tier[f], tree.inlined[i]))
    })
  }

  function redraw () {
    flame.setScene({
      tree: currentTree(),
      zoom: state.zoom,
      inverted: state.inverted,
      marks: state.marks,
      colors: state.colors,
      colorBy: state.colorBy,
      selectedFrame: state.selectedFrame,
      labels
    })
  }

  function describeShare () {
    if (state.matches === undefined) return 'invalid regular expression'
    if (!state.matches && !state.highlight) return ''
    const call = state.callTree
    const all = call.total[0]
    const callMarks = state.inverted ? marksFor(call) : state.marks
    if (!callMarks) return 'no match'
    if (state.highlight) {
      const top = topOfStackSamples(call, callMarks, 0)
      return state.highlight + (state.matches ? ' matches' : ' code') + ' on top of the stack: ' + formatShare(top, all) + ' of samples (' + formatCount(top) + ')'
    }
    const covered = coveredSamples(call, callMarks, 0)
    let text = 'matches: ' + formatShare(covered, all) + ' of samples (' + formatCount(covered) + ')'
    // Only in the flame view: the inverted tree folds thin callers away, so it cannot count them.
    if (state.zoom !== 0 && !state.inverted && state.marks) {
      text += ', ' + formatShare(coveredSamples(call, state.marks, state.zoom), call.total[state.zoom]) + ' of the zoomed frame'
    }
    return text
  }

  function refreshMarks () {
    state.marks = marksFor(currentTree())
    $('search-share').textContent = describeShare()
  }

  function refreshTable () {
    table.update({ frames, stats: state.stats, matches: state.matches || null, all: state.callTree.total[0], tiersKnown })
  }

  function renderBreadcrumbs () {
    const tree = currentTree()
    const path = [0, ...ancestorsOf(tree, state.zoom)]
    const crumb = (node) => {
      const button = document.createElement('button')
      button.type = 'button'
      button.textContent = node === 0 ? 'all' : frames.name[tree.frame[node]]
      button.title = button.textContent
      if (node === state.zoom) button.setAttribute('aria-current', 'true')
      button.addEventListener('click', () => zoomTo(node))
      return button
    }
    const separator = (text) => {
      const span = document.createElement('span')
      span.className = 'sep'
      span.textContent = text
      return span
    }
    const shown = path.length > 10 ? [...path.slice(0, 3), -1, ...path.slice(-6)] : path
    const items = []
    shown.forEach((node, i) => {
      if (i > 0) items.push(separator('›'))
      items.push(node === -1 ? separator('…') : crumb(node))
    })
    $('breadcrumbs').replaceChildren(...items)
  }

  function zoomTo (node) {
    if (state.inverted) {
      showPath(framesTo(node))
      state.marks = marksFor(state.view)
    } else {
      state.zoom = node
    }
    showZoom()
  }

  function showZoom () {
    renderBreadcrumbs()
    redraw()
    flame.reveal(state.zoom)
    $('search-share').textContent = describeShare()
  }

  function select (f) {
    state.selectedFrame = f
    table.select(f)
    source.show(profile, f, state.callTree.total[0])
    redraw()
  }

  /** Rebuilds the trees after a filter change, keeping the zoom where the same frames still lead. */
  function rebuild () {
    const path = state.view ? framesTo(state.zoom) : []
    const hidden = new Uint8Array(8)
    for (const name of state.hidden) for (const category of FILTERS[name]) hidden[category] = 1
    state.callTree = buildCallTree(profile, hidden)
    state.invertedRoot = null
    state.stats = functionStats(state.callTree, frames.count)
    state.colors = frameColors(state.colorBy, frames, state.stats)
    showPath(path)
    refreshMarks()
    refreshTable()
    showZoom()
  }

  function setView (inverted) {
    state.inverted = inverted
    $('view-flame').setAttribute('aria-pressed', String(!inverted))
    $('view-inverted').setAttribute('aria-pressed', String(inverted))
    showPath([])
    refreshMarks()
    showZoom()
  }

  function setColorBy (mode) {
    state.colorBy = mode
    state.colors = frameColors(mode, frames, state.stats)
    renderLegend($('legend'), mode)
    redraw()
  }

  function setHighlight (which) {
    state.highlight = state.highlight === which ? '' : which
    $('highlight-optimized').setAttribute('aria-pressed', String(state.highlight === 'optimized'))
    $('highlight-unoptimized').setAttribute('aria-pressed', String(state.highlight === 'unoptimized'))
    refreshMarks()
    redraw()
  }

  function setQuery (query) {
    state.query = query
    try {
      state.matches = compileQuery(query, frames)
    } catch {
      state.matches = undefined
    }
    refreshMarks()
    refreshTable()
    redraw()
  }

  function setTheme (name) {
    state.theme = name
    document.body.className = 'theme-' + name
    $('theme').textContent = name === 'dark' ? 'Light theme' : 'Dark theme'
    const css = getComputedStyle(document.body)
    const v = (name) => css.getPropertyValue(name).trim()
    flame.setTheme({ background: v('--bg'), root: v('--raised'), rootText: v('--text'), text: v('--frame-text'), dim: v('--frame-dim'), dimText: v('--frame-dim-text'), selected: v('--selected') })
  }

  const canvas = $('flame')
  const nodeAt = (event) => {
    const box = canvas.getBoundingClientRect()
    return flame.nodeAt(event.clientX - box.left, event.clientY - box.top)
  }
  wireControls({
    hover (event) {
      const node = nodeAt(event)
      if (node < 0) return tooltip.hide()
      const { title, where, rows } = tooltip.describe(profile, currentTree(), node, state.inverted, state.stats)
      tooltip.show(event.clientX, event.clientY, title, where, rows)
    },
    leave: () => tooltip.hide(),
    click (event) {
      const node = nodeAt(event)
      if (node < 0) return
      zoomTo(node)
      if (node > 0) select(currentTree().frame[node])
    },
    zoomOut: () => zoomTo(0),
    setQuery,
    setView,
    setColorBy,
    setHighlight,
    toggleTheme: () => setTheme(state.theme === 'dark' ? 'light' : 'dark'),
    setFilter (name, shown) {
      if (shown) state.hidden.delete(name)
      else state.hidden.add(name)
      rebuild()
    }
  })

  renderHeader(meta, $('title'), $('facts'))
  if (!tiersKnown) {
    const notice = $('notice')
    notice.textContent = 'Optimization tiers are unknown for this profile: the profiled Node did not report them, and dyno does not guess.'
    notice.hidden = false
    for (const id of ['highlight-optimized', 'highlight-unoptimized']) $(id).disabled = true
    $('color-by').querySelector('option[value="tier"]').disabled = true
  }
  setTheme(window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark')
  rebuild()
  setColorBy('heat')

  return {
    state: () => ({ inverted: state.inverted, zoom: state.zoom, query: state.query, highlight: state.highlight, colorBy: state.colorBy, hidden: [...state.hidden], selectedFrame: state.selectedFrame, theme: state.theme }),
    tree: () => currentTree(),
    nodesNamed: (name) => {
      const tree = currentTree()
      const nodes = []
      for (let i = 1; i < tree.count; i++) if (frames.name[tree.frame[i]] === name) nodes.push(i)
      return nodes
    },
    frameRect: (node) => {
      const rect = flame.frameRect(node)
      if (!rect) return null
      const box = canvas.getBoundingClientRect()
      return { x: box.left + rect.x, y: box.top + rect.y, width: rect.width, height: rect.height }
    },
    framesDrawn: () => flame.stats().framesDrawn
  }
}
