/*
 * The doctor report's charts: one per signal, all on one time axis (seconds
 * from the first sample), drawn by uPlot. The load window is shaded on every
 * chart; dragging across one zooms them all, and tells the report the range.
 */
import './language.js'
import uPlot from 'uplot'
/*! uPlot (https://github.com/leeoniya/uPlot), bundled into the doctor report: MIT License, Copyright (c) 2025, Leon Sorokin */
/** @import { DoctorCharts } from './figures.js' */

/**
 * @typedef {{ title: string, unit: string, x?: 'load', lines: { key: string, label: string, color: string, dash?: number[] }[] }} ChartSpec
 */

/**
 * @param {HTMLElement} container
 * @param {DoctorCharts & { active: string[] }} data
 * @param {{ start: number, end: number } | null} window the load window, in seconds
 * @param {(from: number, to: number, zoomed: boolean) => void} onRange
 */
export function createCharts (container, data, window, onRange) {
  /** @type {ChartSpec[]} */
  const specs = [
    { title: 'Event-loop delay', unit: 'ms', lines: [{ key: 'delayMax', label: 'max', color: '#ff6b6b' }, { key: 'delayP99', label: 'p99', color: '#ffa94d' }, { key: 'delayP50', label: 'p50', color: '#ffd43b' }] },
    { title: 'Loop utilization and CPU', unit: '%', lines: [{ key: 'elu', label: 'loop busy', color: '#5cb8ff' }, { key: 'cpu', label: 'CPU (100% = one core)', color: '#b197fc' }] },
    { title: 'Memory', unit: 'MB', lines: [{ key: 'heapUsed', label: 'heap used', color: '#69db7c' }, { key: 'heapTotal', label: 'heap total', color: '#38d9a9', dash: [4, 3] }, { key: 'rss', label: 'rss', color: '#ffa94d' }, { key: 'external', label: 'external (array buffers included)', color: '#e599f7' }] },
    { title: 'Garbage collection', unit: '% of time', lines: [{ key: 'gcShare', label: 'GC pauses', color: '#ff8787' }] },
    { title: 'Requests, as the app counts them', unit: 'per s', lines: [{ key: 'finished', label: 'finished', color: '#5cb8ff' }, { key: 'started', label: 'started', color: '#74c0fc', dash: [4, 3] }, { key: 'inFlight', label: 'in flight (count)', color: '#ffd43b' }] },
    { title: 'Active handles and requests', unit: 'count', lines: data.active.map((type, i) => ({ key: 'active:' + type, label: type, color: PALETTE[i % PALETTE.length] })) }
  ]
  if (data.load.t.length > 0) {
    specs.splice(5, 0,
      { title: 'The load (dyno load, once a second)', unit: 'per s', x: 'load', lines: [{ key: 'rps', label: 'responses', color: '#5cb8ff' }, { key: 'errors', label: 'errors', color: '#ff6b6b' }] },
      { title: 'The load\'s latency (each second)', unit: 'ms', x: 'load', lines: [{ key: 'max', label: 'max', color: '#ff6b6b' }, { key: 'p99', label: 'p99', color: '#ffa94d' }, { key: 'p50', label: 'p50', color: '#ffd43b' }] })
  }

  /** @type {any[]} */
  let plots = []
  let syncing = false
  /** @type {{ text: string, grid: string, band: string }} */
  let colors = { text: '#e4e6ea', grid: '#343944', band: 'rgba(92, 184, 255, 0.10)' }
  const extent = { min: 0, max: Math.max(data.t[data.t.length - 1] ?? 1, data.load.t[data.load.t.length - 1] ?? 0) }

  /** @param {any} u */
  function shadeWindow (u) {
    if (!window) return
    const left = u.valToPos(window.start, 'x', true)
    const right = u.valToPos(window.end, 'x', true)
    const ctx = u.ctx
    ctx.save()
    ctx.fillStyle = colors.band
    ctx.fillRect(left, u.bbox.top, Math.max(1, right - left), u.bbox.height)
    ctx.restore()
  }

  /** @param {any} u @param {string} key */
  function onScale (u, key) {
    if (key !== 'x' || syncing) return
    const { min, max } = u.scales.x
    syncing = true
    for (const other of plots) if (other !== u) other.setScale('x', { min, max })
    syncing = false
    // A double-click goes back to the chart's own data, a little short of the whole run.
    const slack = (extent.max - extent.min) * 0.02
    onRange(Math.max(0, min), max, min > extent.min + slack || max < extent.max - slack)
  }

  /** @param {ChartSpec} spec */
  function build (spec) {
    const box = document.createElement('div')
    box.className = 'chart'
    box.dataset.chart = spec.title
    container.append(box)
    const x = spec.x === 'load' ? data.load.t : data.t
    /** @type {any[]} */
    const columns = [x, ...spec.lines.map((line) => spec.x === 'load' ? data.load[/** @type {'rps' | 'errors' | 'p50' | 'p99' | 'max'} */ (line.key)] : data.series[line.key])]
    const axis = { stroke: colors.text, grid: { stroke: colors.grid, width: 1 }, ticks: { stroke: colors.grid, width: 1 } }
    // eslint-disable-next-line new-cap
    return new uPlot({
      title: spec.title + ' (' + spec.unit + ')',
      width: Math.max(300, container.clientWidth - 20),
      height: 170,
      scales: { x: { time: false, range: (/** @type {any} */ u, /** @type {number} */ min, /** @type {number} */ max) => [min, max] } },
      axes: [{ ...axis, label: 'seconds' }, { ...axis, size: 60 }],
      series: [{ label: 's' }, ...spec.lines.map((line) => ({ label: line.label, stroke: line.color, width: 1.5, dash: line.dash, spanGaps: true, points: { show: false } }))],
      cursor: { sync: { key: 'dyno-doctor' }, drag: { x: true, y: false } },
      legend: { live: true },
      hooks: { drawClear: [shadeWindow], setScale: [onScale] }
    }, columns, box)
  }

  return {
    /** Draws every chart again with the theme's colours. @param {(property: string) => string} css */
    setTheme (css) {
      colors = { text: css('--muted'), grid: css('--border'), band: css('--band') }
      for (const plot of plots) plot.destroy()
      container.replaceChildren()
      plots = specs.filter((spec) => spec.lines.length > 0).map(build)
      // Every chart on the same axis from the start, whatever its own data covers.
      syncing = true
      for (const plot of plots) plot.setScale('x', { min: extent.min, max: extent.max })
      syncing = false
    },
    /** @param {number} from @param {number} to */
    zoom (from, to) {
      if (plots.length) plots[0].setScale('x', { min: from, max: to })
    },
    reset () {
      if (plots.length) plots[0].setScale('x', { min: extent.min, max: extent.max })
    },
    resize () {
      for (const plot of plots) plot.setSize({ width: Math.max(300, container.clientWidth - 20), height: 170 })
    },
    /** The charts' titles, in order: for tests. */
    titles: () => plots.map((plot) => plot.root.closest('.chart').dataset.chart),
    /**
     * The colour of a chart's plot at second `at`, near its top: for tests.
     * @param {number} index @param {number} at
     */
    pixel (index, at) {
      const u = plots[index]
      const x = Math.round(u.valToPos(at, 'x', true))
      return Array.from(u.ctx.getImageData(x, Math.round(u.bbox.top + 2), 1, 1).data)
    },
    /** The range each chart shows, in seconds: for tests. */
    ranges: () => plots.map((plot) => [plot.scales.x.min, plot.scales.x.max])
  }
}

const PALETTE = ['#5cb8ff', '#ffa94d', '#69db7c', '#e599f7', '#ffd43b', '#ff8787']
