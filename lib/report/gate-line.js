import { errorInfo } from '../errors.js'
import { ratioText } from './comparison-table.js'

/**
 * The one line --fail-if-slower prints on stderr: which comparisons are
 * slower than it allows (exit code 3), or that none is. Pure.
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
  if (gate.failed) {
    const figures = judged.filter((c) => gate.slower.includes(c.name)).map(figure).join(', ')
    return style.red(errorInfo('DYNO_SLOWER', { percent: gate.percent, figures }).message)
  }
  return `not slower by more than ${gate.percent}% with 95% confidence: ${judged.map(figure).join(', ')}`
}
