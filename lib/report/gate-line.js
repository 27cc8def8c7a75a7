import { errorInfo } from '../errors.js'
import { ratioText } from './comparison-table.js'
import { times } from '../format.js'

/**
 * The one line --fail-if-slower prints on stderr: which comparisons are
 * slower than it allows (exit code 3), which cannot tell yet, or that none
 * is slower. Pure.
 *
 * @typedef {import('../stats/comparison.js').ComparisonEntry} ComparisonEntry
 * @typedef {ReturnType<typeof import('../stats/comparison.js').slowerGate>} Gate
 */

/**
 * @param {Gate} gate
 * @param {ComparisonEntry[]} judged the comparisons the gate judged
 * @param {import('./style.js').Style} style red when the gate fails
 * @param {(name: string) => string} [label] what a comparison is called, e.g. requests → requests/sec
 */
export function gateLine (gate, judged, style, label = (name) => name) {
  const figure = (/** @type {ComparisonEntry} */ c) => `${label(c.name)} ${ratioText(c)}`
  const named = (/** @type {string[]} */ names) => judged.filter((c) => names.includes(c.name)).map(figure).join(', ')
  if (gate.failed) return style.red(errorInfo('DYNO_SLOWER', { percent: gate.percent, figures: named(gate.slower) }).message)
  if (gate.unsettled.length > 0) {
    return style.yellow(`cannot tell whether slower by more than ${gate.percent}%: ${named(gate.unsettled)} reaches past ${times(1 - gate.percent / 100)}; more rounds would tell (not failed)`)
  }
  return `not slower by more than ${gate.percent}% with 95% confidence: ${judged.map(figure).join(', ')}`
}
