/* The async report: its state, its actions, and what each part of the page draws. */
import { shortDuration } from '../../lib/format.js'
import { formatCount } from '../shared/format.js'
import { renderHeader, runFacts } from '../shared/header.js'
import { createStore } from '../shared/state.js'
import { applyTheme, preferredTheme, themeActions } from '../shared/theme.js'
import { createTooltip } from '../shared/tooltip.js'
import { renderCallSites, sortCallSites } from './call-sites.js'
import { readAsyncData } from './data.js'
import { renderFindings } from './findings.js'
import { createSourcePanel } from './source.js'
import { markSelected, renderWaterfall } from './waterfall.js'
/** @import { SiteColumn } from './call-sites.js' */

/**
 * @typedef {object} AsyncState
 * @property {'typical' | 'slowest'} request the request whose waterfall is shown
 * @property {boolean} criticalOnly
 * @property {number} selectedSite -1 for none
 * @property {SiteColumn} sortBy
 * @property {boolean} descending
 * @property {'dark' | 'light'} theme
 */

export function startReport () {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id))
  const data = readAsyncData(/** @type {string} */ ($('async-data').textContent))
  const { analysis, sites, meta } = data
  const tooltip = createTooltip($('tooltip'))
  const source = createSourcePanel({ title: $('source-title'), note: $('source-note'), stack: $('source-stack'), lines: $('source-lines') }, data.sources)

  const store = createStore(/** @type {AsyncState} */ ({
    request: analysis.typical ? 'typical' : 'slowest',
    criticalOnly: false,
    selectedSite: -1,
    sortBy: 'totalWaitMs',
    descending: true,
    theme: preferredTheme()
  }), {
    ...themeActions,
    /** @param {AsyncState} state @param {'typical' | 'slowest'} request */
    showRequest: (state, request) => analysis[request] ? { request } : null,
    /** @param {AsyncState} state */
    toggleCritical: (state) => ({ criticalOnly: !state.criticalOnly }),
    /** @param {AsyncState} state @param {number} site */
    select: (state, site) => ({ selectedSite: site }),
    /** @param {AsyncState} state @param {SiteColumn} column */
    sort: (state, column) => ({ sortBy: column, descending: state.sortBy === column ? !state.descending : column !== 'place' && column !== 'kind' })
  })

  const { counts, traced, latency } = analysis
  const started = Date.parse(meta.startedAt)
  const finished = meta.finishedAt ? Date.parse(meta.finishedAt) : NaN
  /** @type {[string, string][]} */
  const own = [
    ['requests', formatCount(counts.requests) + ', ' + formatCount(traced.total) + ' traced (1 in ' + formatCount(counts.sample) + ')'],
    ['latency', latency ? 'typical ' + shortDuration(latency.medianMs) + ', slowest ' + shortDuration(latency.maxMs) : 'no traced request finished']
  ]
  if (traced.open) own.push(['never finished', formatCount(traced.open)])
  renderHeader({ title: $('title'), facts: $('facts') }, 'dyno async', meta.title,
    runFacts({ title: meta.title, startedAt: meta.startedAt, durationMs: finished - started, node: meta.node, v8: null, exit: meta.exit, load: meta.load }, own))
  if (traced.total === 0) {
    const sent = meta.load && meta.load.sent ? meta.load.sent : 0
    $('notice').textContent = counts.requests > 0
      ? 'No request was traced: raise the share traced with --sample.'
      : sent > 0
        ? 'The load sent ' + formatCount(sent) + ' requests and the app handed over none: its event loop was blocked, or it never took them. dyno doctor says which.'
        : 'No HTTP request reached the app while it was observed: drive it with --load or --on-port.'
    $('notice').hidden = false
  } else if (analysis.tooFew) {
    $('notice').textContent = 'Too few requests traced to judge: ' + formatCount(traced.finished) + ' finished of the ' +
      formatCount(counts.finished) + ' the app answered. A longer load, or a higher --max-rate, traces more.'
    $('notice').hidden = false
  }
  $('findings-count').textContent = analysis.findings.length ? '(' + analysis.findings.length + ')' : ''
  renderFindings($('findings'), analysis.findings, traced, (location) => {
    const site = analysis.sites.find((s) => s.frames[0] && s.frames[0].file === location.file && s.frames[0].line === location.line)
    if (site) store.actions.select(site.id)
  })

  const requestButtons = { typical: $('show-typical'), slowest: $('show-slowest') }
  store.view(['request', 'criticalOnly'], (state) => {
    const view = analysis[state.request]
    for (const [name, element] of Object.entries(requestButtons)) {
      const button = /** @type {HTMLButtonElement} */ (element)
      button.setAttribute('aria-pressed', String(name === state.request))
      button.disabled = !analysis[/** @type {'typical' | 'slowest'} */ (name)]
    }
    if (!view) {
      $('waterfall-title').textContent = 'Waterfall'
      $('waterfall-note').textContent = 'No request was traced.'
      $('waterfall').replaceChildren()
      return
    }
    $('waterfall-title').textContent = (state.request === 'typical' ? 'Typical request' : 'Slowest request') + ': ' + view.method + ' ' + view.path
    $('waterfall-note').textContent = shortDuration(view.durationMs) + (view.how === 'finished' ? '' : ' (' + view.how + ')') + ', ' +
      formatCount(view.ops) + ' operations' + (view.bars.length < view.ops ? ', the ' + formatCount(view.bars.length) + ' that matter shown' : '') +
      '; time from the request\'s start.'
    renderWaterfall($('waterfall'), view, { sites, criticalOnly: state.criticalOnly, onSelect: store.actions.select, tooltip })
    markSelected($('waterfall'), state.selectedSite)
  })

  const body = /** @type {HTMLTableSectionElement} */ ($('call-sites').querySelector('tbody'))
  $('sites-count').textContent = '(' + formatCount(analysis.callSites.length) + ', over ' + formatCount(traced.total) + ' traced requests)'
  store.view(['sortBy', 'descending'], (state) => {
    renderCallSites(body, sortCallSites(analysis.callSites, sites, state.sortBy, state.descending),
      { sites, traced: traced.total, onSelect: store.actions.select })
    markSelected(body, state.selectedSite)
    for (const button of document.querySelectorAll('#call-sites th button')) {
      const column = /** @type {HTMLElement} */ (button).dataset.sort
      if (column === state.sortBy) button.setAttribute('aria-sort', state.descending ? 'descending' : 'ascending')
      else button.removeAttribute('aria-sort')
    }
  })
  store.view(['selectedSite'], (state) => {
    markSelected($('waterfall'), state.selectedSite)
    markSelected(body, state.selectedSite)
    if (state.selectedSite >= 0) source.show(sites.get(state.selectedSite))
  })
  store.view(['theme'], (state) => applyTheme(state.theme, $('theme')))

  requestButtons.typical.addEventListener('click', () => store.actions.showRequest('typical'))
  requestButtons.slowest.addEventListener('click', () => store.actions.showRequest('slowest'))
  $('critical-only').addEventListener('change', () => store.actions.toggleCritical())
  for (const button of document.querySelectorAll('#call-sites th button')) {
    button.addEventListener('click', () => store.actions.sort(/** @type {SiteColumn} */ (/** @type {HTMLElement} */ (button).dataset.sort)))
  }
  $('theme').addEventListener('click', () => store.actions.toggleTheme())
  store.start()
  return { dynoAsync: { get state () { return store.state }, actions: store.actions } }
}
