import { count, decimal, percent, pValue, times } from '../format.js'
import { table } from './table.js'

/**
 * The table every comparison prints, before and after side by side, and a
 * line per verdict: dyno micro --against and dyno compare.
 *
 * @typedef {import('./style.js').Style} Style
 * @typedef {import('../stats/comparison.js').ComparisonEntry} ComparisonEntry
 */

/**
 * @param {(ComparisonEntry & { rme?: { before: number, after: number } })[]} entries
 * @param {{ labels: [string, string], unit: string, first?: string, style: Style }} options
 */
export function comparisonTable (entries, { labels, unit, first = 'Case', style }) {
  const rows = [[first, `${labels[0]} ${unit}`, `${labels[1]} ${unit}`, `${labels[1]} / ${labels[0]} (95% CI)`, 'p', 'Verdict']]
  for (const e of entries) {
    rows.push([e.name, figure(e.before, e.rme?.before), figure(e.after, e.rme?.after), ratioText(e), pValue(e.p), e.verdict])
  }
  return table(rows, style)
}

/** @param {number} n @param {number} [rme] */
function figure (n, rme) {
  return rme === undefined || Number.isNaN(rme) ? rateText(n) : `${rateText(n)} ±${decimal(rme, 1)}%`
}

/** `12,345`, `12.3`, `1.23`: ops/sec or req/sec @param {number} n */
export function rateText (n) {
  return n >= 100 ? count(n) : decimal(n, n >= 10 ? 1 : 2)
}

/**
 * `1.23x (1.15x–1.31x)`, or `1.23x slower (1.15x–1.31x)` with a word; with
 * three decimals when two would print the interval as one number.
 * @param {{ ratio: number, low: number, high: number }} e @param {string} [word]
 */
export function ratioText (e, word) {
  const narrow = times(e.low) === times(e.high) && e.high < 10
  const x = (/** @type {number} */ r) => (narrow ? `${r.toFixed(3)}x` : times(r))
  // An interval with no end (one sample, or a zero) says nothing: none is printed.
  const interval = e.low > 0 && Number.isFinite(e.high) ? ` (${x(e.low)}–${x(e.high)})` : ' (no interval)'
  return `${x(e.ratio)}${word ? ` ${word}` : ''}${interval}`
}

/**
 * One sentence for the cases of each verdict: `Faster: a (1.23x), b (2.01x). Indistinguishable: c.`
 * @param {ComparisonEntry[]} entries @param {string} subject what changed, e.g. "the working tree"
 * @param {Style} style
 */
export function verdictLines (entries, subject, style) {
  const of = (/** @type {ComparisonEntry['verdict']} */ v) => entries.filter((e) => e.verdict === v)
  const lines = []
  const faster = of('faster')
  const slower = of('slower')
  const same = of('indistinguishable')
  if (faster.length) lines.push(style.green(`Faster in ${subject}: ${faster.map((e) => `${e.name} (${times(e.ratio)})`).join(', ')}`))
  if (slower.length) lines.push(style.red(`Slower in ${subject}: ${slower.map((e) => `${e.name} (${times(1 / e.ratio)} slower)`).join(', ')}`))
  if (same.length) lines.push(`Cannot be told apart (no significant difference at 95%): ${same.map((e) => e.name).join(', ')}`)
  const detectable = entries.filter((e) => e.detectable !== null)
  if (detectable.length) lines.push(style.dim(`The smallest change this measurement would have found, 4 times in 5: ${detectable.map((e) => `${e.name} ${percent(/** @type {number} */ (e.detectable))}`).join(', ')}.`))
  return lines
}
