import { rateText, ratioText } from '../../report/comparison-table.js'
import { count, milliseconds, pValue, times } from '../../format.js'
import { renderFlameDiff } from './flame-diff-terminal.js'
import { table } from '../../report/table.js'

/**
 * dyno compare --load's terminal report: the two versions, the rounds, one
 * table (requests per second, p50, p99 with after / before and its 95%
 * interval) and one sentence.
 *
 * @typedef {import('../../report/style.js').Style} Style
 * @typedef {import('./types.js').CompareLoadResult} CompareLoadResult
 */

/**
 * @param {CompareLoadResult} result
 * @param {{ style: Style }} options
 */
export function renderLoadComparison (result, { style }) {
  const { before, after } = result.versions
  const name = (/** @type {typeof before} */ v) => `${v.label}${v.commit ? ` (${v.commit.slice(0, 10)})` : ''}: ${v.command.join(' ')}`
  const out = [`before  ${name(before)}`, `after   ${name(after)}`]
  const kind = result.settings.fresh ? 'each load on a cold start' : 'each on a fresh pair warmed up by one load (not counted)'
  const compared = result.comparisons[0]?.rounds ?? 0
  out.push(style.dim(`${compared} of ${result.settings.rounds} rounds compared, ${kind}, the order alternating (before after, after before, …)`))
  if (result.comparisons.length === 0) {
    const silent = (/** @type {const} */ (['before', 'after'])).filter((side) => result.totals[side].completed === 0)
    out.push(style.yellow(`No round could be compared${silent.length > 0 ? `: ${silent.join(' and ')} answered no request` : ''}; no ratio, no verdict.`))
  } else {
    const rows = [['Stat', 'before', 'after', 'after / before (95% CI)', 'p', 'Verdict']]
    for (const c of result.comparisons) {
      const format = c.name === 'requests' ? (/** @type {number} */ n) => `${rateText(n)} req/s` : milliseconds
      rows.push([c.name === 'requests' ? 'Requests/sec' : `Latency ${c.name}`, format(c.before), format(c.after), Number.isFinite(c.low) ? ratioText(c) : times(c.ratio), pValue(c.p), c.verdict])
    }
    out.push(table(rows, style))
    out.push(sentence(result, style))
  }
  for (const side of /** @type {const} */ (['before', 'after'])) {
    const t = result.totals[side]
    if (t.errors > 0 || t.non2xx > 0) out.push(style.yellow(`${side}: ${count(t.errors)} errors and ${count(t.non2xx)} non-2xx answers in ${count(t.completed)} requests`))
  }
  if (compared > 0 && compared < 3) out.push(style.yellow('fewer than 3 rounds compared: the interval is wide; run more --rounds'))
  if (result.flame) out.push('', renderFlameDiff(result.flame.diff, { style }).trimEnd(), style.dim(`Differential flamegraph: ${result.flame.html}`))
  return out.join('\n') + '\n'
}

/**
 * "after: 1.23x the requests per second (1.15x–1.31x), p50 0.81x, p99 0.62x",
 * coloured by the verdict on requests.
 * @param {CompareLoadResult} result @param {Style} style
 */
function sentence (result, style) {
  const [requests, ...latencies] = result.comparisons
  const interval = Number.isFinite(requests.low) ? ` (${times(requests.low)}–${times(requests.high)})` : ''
  const parts = [`${times(requests.ratio)} the requests per second${interval}`]
  for (const l of latencies) parts.push(`${l.name} ${times(l.ratio)}`)
  const verdict = requests.verdict === 'indistinguishable'
    ? 'the two cannot be told apart on throughput at 95%'
    : `${result.versions.after.label} is ${requests.verdict} on throughput`
  const text = `after: ${parts.join(', ')}; ${verdict}.`
  return requests.verdict === 'faster' ? style.green(text) : requests.verdict === 'slower' ? style.red(text) : text
}

/**
 * One line per load as the rounds go, for stderr.
 * @param {{ side: string, label: string, round: number, rounds: number, figures: import('./load-rounds.js').RoundFigures }} event
 */
export function roundLine (event) {
  const round = event.round === 0 ? 'warm-up' : `round ${event.round}/${event.rounds}`
  return `${round.padEnd(`round ${event.rounds}/${event.rounds}`.length)}  ${event.side.padEnd(6)}  ${rateText(event.figures.requestsPerSecond)} req/s  p50 ${milliseconds(event.figures.p50)}  p99 ${milliseconds(event.figures.p99)}\n`
}
