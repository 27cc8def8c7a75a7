import { rateText, ratioText } from '../../report/comparison-table.js'
import { count, duration, milliseconds, percent, pValue, times } from '../../format.js'
import { renderFlameDiff } from './flame-diff-terminal.js'
import { SHARED_AT_MOST } from './pair-round.js'
import { table } from '../../report/table.js'

/**
 * dyno compare --load's terminal report: the two versions, the rounds and
 * why they stopped, one table (requests per second, p50, p99 and CPU per
 * request, with after / before and its 95% interval), one sentence, and the
 * smallest change the run could have found.
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
  const cpus = result.settings.cpus
  const kind = result.settings.fresh
    ? 'each load on a cold start'
    : `each on a fresh pair side by side, warmed up until its rates settled (not counted), then ${MODE_TEXT[result.settings.mode ?? 'together']}${cpus ? `, the apps on CPU ${cpus.apps} and the load on CPU ${cpus.load}` : ''}`
  const compared = result.comparisons[0]?.rounds ?? 0
  const started = Math.max(compared, result.settings.rounds ?? 0, result.rounds.length)
  const order = result.settings.fresh ? ', the order alternating (before after, after before, …)' : ''
  out.push(style.dim(`${compared} of ${started} rounds compared in ${duration(result.elapsedMs)}${stopText(result)}, ${kind}${order}`))
  if (result.comparisons.length === 0) {
    const silent = (/** @type {const} */ (['before', 'after'])).filter((side) => result.totals[side].completed === 0)
    out.push(style.yellow(`No round could be compared${silent.length > 0 ? `: ${silent.join(' and ')} answered no request` : ''}; no ratio, no verdict.`))
  } else {
    const rows = [['Stat', 'before', 'after', 'after / before (95% CI)', 'p', 'Verdict']]
    for (const c of result.comparisons) {
      rows.push([METRIC_LABELS[c.name] ?? c.name, FORMATS[c.name]?.(c.before) ?? String(c.before), FORMATS[c.name]?.(c.after) ?? String(c.after), Number.isFinite(c.low) ? ratioText(c) : times(c.ratio), pValue(c.p), c.verdict])
    }
    out.push(table(rows, style))
    out.push(sentence(result, style))
    const detectable = detectableText(result)
    if (detectable) out.push(detectable)
  }
  for (const side of /** @type {const} */ (['before', 'after'])) {
    const t = result.totals[side]
    if (t.errors > 0 || t.non2xx > 0) out.push(style.yellow(`${side}: ${count(t.errors)} errors and ${count(t.non2xx)} non-2xx answers in ${count(t.completed)} requests`))
  }
  if (result.settings.rounds !== null && compared > 0 && compared < 3) out.push(style.yellow('fewer than 3 rounds compared: the interval is wide; run more --rounds'))
  if (result.flame) out.push('', renderFlameDiff(result.flame.diff, { style }).trimEnd(), style.dim(`Differential flamegraph: ${result.flame.html}`))
  return out.join('\n') + '\n'
}

/** How a warm round loaded the two versions. */
const MODE_TEXT = {
  together: 'loaded at the same time',
  alone: `loaded one at a time (their rates were more than ${SHARED_AT_MOST}x apart: sharing the CPU would have skewed that)`
}

/** What the table calls each metric. */
const METRIC_LABELS = /** @type {Record<string, string>} */ ({ requests: 'Requests/sec', p50: 'Latency p50', p99: 'Latency p99', cpu: 'CPU per request' })

/** How each metric's figures are written. */
const FORMATS = /** @type {Record<string, (n: number) => string>} */ ({
  requests: (n) => `${rateText(n)} req/s`,
  p50: milliseconds,
  p99: milliseconds,
  cpu: milliseconds
})

/** Why the rounds ended, said after their count. @param {CompareLoadResult} result */
function stopText (result) {
  const { precision, failIfSlower } = result.settings
  switch (result.stopped) {
    case 'precise': return ` (the interval reached ±${percent(precision)})`
    case 'clear': return ' (the change known to within a quarter of its size)'
    case 'gate': return ` (the --fail-if-slower ${failIfSlower}% gate settled)`
    case 'time': return ` (--max-time ${duration(result.settings.maxTimeMs)} reached before the interval was within ±${percent(precision)})`
    default: return ''
  }
}

/**
 * The smallest change in requests per second this run would have found, 4 times in 5.
 * @param {CompareLoadResult} result
 */
function detectableText (result) {
  const requests = result.comparisons.find((c) => c.name === 'requests')
  if (!requests) return null
  if (requests.detectable === null) return 'This run was too short to find any change: run more rounds.'
  const size = percent(requests.detectable)
  return requests.verdict === 'indistinguishable'
    ? `Indistinguishable: a change of ${size} or more in requests per second would have been found (4 times in 5).`
    : `This run would have found a change of ${size} or more in requests per second (4 times in 5).`
}

/**
 * "after: 1.23x the requests per second (1.15x–1.31x), p50 0.81x, p99 0.62x",
 * coloured by the verdict on requests.
 * @param {CompareLoadResult} result @param {Style} style
 */
function sentence (result, style) {
  const [requests, ...latencies] = result.comparisons
  const interval = requests.low > 0 && Number.isFinite(requests.high) ? ` (${times(requests.low)}–${times(requests.high)})` : ''
  const parts = [`${times(requests.ratio)} the requests per second${interval}`]
  for (const l of latencies) parts.push(`${l.name === 'cpu' ? 'CPU per request' : l.name} ${times(l.ratio)}`)
  const verdict = requests.verdict === 'indistinguishable'
    ? 'the two cannot be told apart on throughput at 95%'
    : `${result.versions.after.label} is ${requests.verdict} on throughput`
  const text = `after: ${parts.join(', ')}; ${verdict}.`
  return requests.verdict === 'faster' ? style.green(text) : requests.verdict === 'slower' ? style.red(text) : text
}

/**
 * One line per load as the rounds go, for stderr.
 * @param {{ side: string, label: string, round: number, rounds: number | null, figures: import('./load-rounds.js').RoundFigures }} event
 */
export function roundLine (event) {
  const round = event.rounds === null ? `round ${event.round}` : `round ${event.round}/${event.rounds}`
  const cpu = event.figures.cpuPerRequest === null ? '' : `  CPU ${milliseconds(event.figures.cpuPerRequest)}/req`
  return `${round.padEnd(10)}  ${event.side.padEnd(6)}  ${rateText(event.figures.requestsPerSecond)} req/s  p50 ${milliseconds(event.figures.p50)}  p99 ${milliseconds(event.figures.p99)}${cpu}\n`
}

/**
 * After each round: the interval of requests per second so far, against the precision wanted and the time left.
 * @param {{ started: number, rounds: number | null, elapsedMs: number, maxTimeMs: number, precision: number, requests: { ratio: number, low: number, high: number } | null }} event
 * @param {Style} style
 */
export function progressLine (event, style) {
  const r = event.requests
  const where = r ? `requests/sec ${times(r.ratio)} (${times(r.low)}–${times(r.high)}), ±${percent(Math.max(r.high / r.ratio - 1, 1 - r.low / r.ratio))}` : 'requests/sec: no interval yet'
  const target = event.rounds === null ? ` of ±${percent(event.precision)} wanted, ${duration(event.elapsedMs)} of at most ${duration(event.maxTimeMs)}` : ''
  return style.dim(`after round ${event.started}: ${where}${target}`) + '\n'
}
