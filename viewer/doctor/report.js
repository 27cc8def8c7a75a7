/*
 * The doctor report: the diagnoses, the figures of the range in view (the
 * load window at first), and the charts. The state is the range and the theme.
 */
import { renderHeader, runFacts } from '../shared/header.js'
import { createStore } from '../shared/state.js'
import { applyTheme, preferredTheme, themeActions } from '../shared/theme.js'
import { createCharts } from './charts.js'
import { renderDiagnoses } from './diagnoses.js'
import { rangeFigures, renderFigures } from './figures.js'

export function startReport () {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id))
  const data = JSON.parse($('doctor-data').textContent ?? '')
  const window0 = data.window
  const whole = { from: 0, to: Math.max(data.charts.t[data.charts.t.length - 1] ?? 0, 0) }
  const first = window0 ? { from: window0.start, to: window0.end } : whole
  const sourceText = /** @type {Record<string, string>} */ ({ load: 'under dyno\'s load', 'on-port': 'while the --on-port command ran', requests: 'while the app served requests', run: 'the whole run' })

  renderHeader({ title: $('title'), facts: $('facts') }, 'dyno doctor', data.title, runFacts(data.facts, data.sampleIntervalMs ? [['samples', 'every ' + data.sampleIntervalMs + ' ms']] : []))
  renderDiagnoses($('diagnoses'), data.diagnoses, data.note)

  const store = createStore({ theme: preferredTheme(), range: first, zoomed: false }, {
    ...themeActions,
    /** @param {any} state @param {number} from @param {number} to @param {boolean} zoomed */
    showRange: (state, from, to, zoomed) => ({ range: { from, to }, zoomed })
  })
  const charts = createCharts($('charts'), data.charts, window0, (from, to, zoomed) => store.actions.showRange(from, to, zoomed))

  store.view(['theme'], (state) => {
    charts.setTheme(applyTheme(state.theme, $('theme')))
  })
  store.view(['range', 'zoomed'], (state) => {
    // Not zoomed: the window the diagnoses judged, with their figures, whatever range the charts show.
    if (!state.zoomed && window0 && data.figures) {
      renderFigures($('figures-title'), $('figures'), 'Figures ' + sourceText[window0.source], data.figures)
    } else {
      const heading = 'Figures from ' + state.range.from.toFixed(1) + ' s to ' + state.range.to.toFixed(1) + ' s'
      renderFigures($('figures-title'), $('figures'), heading, rangeFigures(data.charts, state.range.from, state.range.to))
    }
  })
  $('theme').addEventListener('click', () => store.actions.toggleTheme())
  $('reset-zoom').addEventListener('click', () => charts.reset())
  addEventListener('resize', () => charts.resize())
  store.start()
  return { dynoDoctor: { data, charts, zoom: charts.zoom, state: () => store.state } }
}
