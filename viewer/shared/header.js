/* The summary at the top: what ran, when, for how long, and how it ended. */
import { duration } from '../../lib/format.js'
import { formatCount, formatDate } from './format.js'

/**
 * What every report knows of its run (FlameMeta has it, and more).
 * @typedef {object} RunFacts
 * @property {string} title usually the command that ran
 * @property {string} startedAt ISO time
 * @property {number} durationMs
 * @property {string | null} node
 * @property {string | null} v8
 * @property {{ how: string, code: number | null, signal: string | null } | null} exit
 * @property {{ average: number, p50: number, p99: number, errors: number, non2xx: number, sent?: number } | null} [load]
 * @property {string[]} [warnings] what the report could not do, and why
 */

/** @param {RunFacts['exit']} exit */
function exitText (exit) {
  if (!exit) return 'unknown'
  let text = String(exit.how)
  if (exit.code !== null && exit.code !== undefined) text += ' (code ' + exit.code + ')'
  if (exit.signal) text += ' (' + exit.signal + ')'
  return text
}

/** @param {NonNullable<RunFacts['load']>} load */
function loadText (load) {
  const ms = (/** @type {number} */ value) => (value >= 10 ? value.toFixed(1) : value.toFixed(2)) + ' ms'
  return formatCount(load.average) + ' req/s, latency p50 ' + ms(load.p50) + ', p99 ' + ms(load.p99) +
    ', ' + formatCount(load.errors) + ' errors, ' + formatCount(load.non2xx) + ' non-2xx'
}

/**
 * The facts of a run as [term, value] rows; `own` (the report's) come after the duration.
 * @param {RunFacts} run
 * @param {[string, string][]} own
 * @returns {[string, string][]}
 */
export function runFacts (run, own) {
  /** @type {[string, string][]} */
  const rows = [
    ['started', formatDate(run.startedAt)],
    ['duration', duration(run.durationMs)],
    ...own,
    ['Node.js', (run.node || 'unknown') + (run.v8 ? ' (V8 ' + run.v8 + ')' : '')],
    ['app', exitText(run.exit)]
  ]
  if (run.load) rows.push(['load', loadText(run.load)])
  for (const warning of run.warnings || []) rows.push(['warning', warning])
  return rows
}

/**
 * @param {{ title: HTMLElement, facts: HTMLElement }} elements
 * @param {string} report the report's name, as "dyno flame"
 * @param {string} title
 * @param {[string, string][]} facts
 */
export function renderHeader (elements, report, title, facts) {
  document.title = title + ' · ' + report
  elements.title.textContent = title
  renderFacts(elements.facts, facts)
}

/**
 * [term, value] rows into a <dl>, one <div> each.
 * @param {HTMLElement} list
 * @param {[string, string][]} facts
 */
export function renderFacts (list, facts) {
  list.replaceChildren(...facts.map(([term, value]) => {
    const row = document.createElement('div')
    const dt = document.createElement('dt')
    const dd = document.createElement('dd')
    dt.textContent = term
    dd.textContent = value
    row.append(dt, dd)
    return row
  }))
}
