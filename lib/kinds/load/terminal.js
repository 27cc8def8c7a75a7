import { DEFAULTS, displayUrl } from '../../load/options.js'
import { LATENCY_PERCENTILES } from '../../load/summary.js'
import { bytes, count, decimal, milliseconds, seconds } from '../../format.js'
import { table } from '../../report/table.js'
import { formatValue } from './thresholds.js'

/** @typedef {import('../../load/summary.js').LoadResult} LoadResult */
/** @typedef {import('../../report/style.js').Style} Style */

/** A rate as asked for: `0.5`, `2,000`, `1,234.5`. @param {number} n */
const rate = (n) => n.toLocaleString('en-US', { maximumFractionDigits: 3 })

/**
 * What the run is about to do, printed before it starts.
 * @param {import('../../load/options.js').LoadOptions} options
 */
export function renderLoadHeader (options) {
  const connections = options.connections ?? DEFAULTS.connections
  const length = options.amount !== undefined && options.duration === undefined
    ? `${count(options.amount)} requests`
    : `${seconds(options.duration ?? DEFAULTS.duration)} test`
  const via = options.socketPath !== undefined ? ` via ${options.socketPath}` : ''
  const lines = [`Running ${length} @ ${displayUrl(options.url)}${via}`]
  let shape = `${connections} connection${connections === 1 ? '' : 's'}`
  if (options.http2) shape += `, HTTP/2 with ${options.streams ?? 1} stream${(options.streams ?? 1) === 1 ? '' : 's'} each`
  if ((options.pipelining ?? DEFAULTS.pipelining) > 1) shape += ` with ${options.pipelining} pipelining factor`
  if (options.workers) shape += `, ${options.workers} worker${options.workers === 1 ? '' : 's'}`
  lines.push(shape)
  if (options.rate) lines.push(`open model: ${rate(options.rate)} req/s, latency measured from each request's intended send time`)
  return lines.join('\n') + '\n'
}

/**
 * The loads of a run's rounds, each headed by its round's number when there
 * were more than one.
 * @param {LoadResult[]} loads
 * @param {Style} style
 */
export function renderRoundLoads (loads, style) {
  if (loads.length === 1) return `${renderLoadResult(loads[0], { style })}\n`
  return loads.map((load, i) => `${style.bold(`Round ${i + 1}`)}\n${renderLoadResult(load, { style })}\n`).join('')
}

/**
 * @param {LoadResult} result
 * @param {{ style: Style, percentiles?: boolean }} options
 */
export function renderLoadResult (result, { style, percentiles = false }) {
  const bold = style.bold
  const l = result.latency
  const p = l.percentiles
  const out = []
  out.push(table([
    ['Stat', '2.5%', '50%', '97.5%', '99%', 'Avg', 'Stdev', 'Max'],
    ['Latency', ...[p['2.5'], p['50'], p['97.5'], p['99'], l.mean, l.stdev, l.max].map(milliseconds)]
  ], { bold }))

  const r = result.requests.perSecond
  const b = result.bytes.perSecond
  out.push(table([
    ['Stat', '1%', '2.5%', '50%', '97.5%', 'Avg', 'Stdev', 'Min'],
    ['Req/Sec', ...sampleRow(r, count, (n) => decimal(n, 2))],
    ['Bytes/Sec', ...sampleRow(b, bytes, bytes)]
  ], { bold }))
  out.push('Req/Bytes counts sampled once per second.')
  out.push(`# of samples: ${r.samples.length}`)

  if (percentiles) {
    out.push('')
    out.push(table([
      ['Percentile', 'Latency'],
      ...LATENCY_PERCENTILES.map((pct) => [`${pct}%`, milliseconds(p[String(pct)])])
    ], { bold }))
  }

  out.push('')
  const interrupted = result.interrupted ? ' (interrupted)' : ''
  out.push(`${count(result.requests.completed)} requests in ${decimal(result.duration, 2)}s, ${bytes(result.bytes.total)} read${interrupted}`)
  const pending = result.requests.pending
  if (pending > 0) {
    out.push(style.yellow(`${requestsWere(pending)} still waiting for an answer when the run ended`))
  }

  const e = result.errors
  if (e.total > 0) {
    const kinds = /** @type {const} */ ([
      ['timeout', 'timeouts'], ['reset', 'connection resets'], ['refused', 'refused connections'],
      ['closed', 'closed before answering'], ['invalid', 'invalid responses'], ['tls', 'TLS failures'],
      ['goaway', 'streams left out by GOAWAY'], ['stream', 'streams reset by the server'], ['other', 'other']
    ])
    const parts = kinds.filter(([k]) => e[k] > 0).map(([k, label]) => `${label} ${count(e[k])}`)
    out.push(style.red(`${count(e.total)} errors (${parts.join(', ')})`))
  }
  if (result.streamLimit !== null && result.streamLimit !== undefined) {
    out.push(style.yellow(`the server allows ${count(result.streamLimit)} concurrent stream${result.streamLimit === 1 ? '' : 's'} on a connection: ${count(result.streamLimit)} were in flight on each, not the ${count(result.streams ?? 0)} asked for`))
  }
  if (result.non2xx > 0) {
    const codes = Object.entries(result.statusCodes)
      .filter(([code]) => code[0] !== '2')
      .map(([code, n]) => `${code}: ${count(n)}`)
    out.push(style.yellow(`${count(result.non2xx)} non-2xx responses (${codes.join(', ')})`))
  }
  if (result.model === 'open') {
    out.push(`peak connections: ${count(result.peakConnections)}`)
    if (result.requests.dropped > 0) {
      out.push(style.yellow(`${requestsWere(result.requests.dropped)} due but never sent: every connection was busy (the server fell behind, or --max-connections was reached)`))
    }
  }
  return out.join('\n') + '\n'
}

/**
 * The --fail-on thresholds, each with the figure it was judged on.
 * @param {readonly import('./thresholds.js').Verdict[]} verdicts
 * @param {Style} style
 */
export function renderThresholds (verdicts, style) {
  const broken = verdicts.filter((v) => !v.ok).length
  const out = [`Thresholds: ${verdicts.length - broken} held, ${broken} ${verdicts.some((v) => v.value === null) ? 'not judged' : 'broken'}`]
  const width = Math.max(...verdicts.map((v) => v.threshold.length))
  for (const v of verdicts) {
    const mark = v.ok ? style.green('✓') : style.red('✗')
    const what = v.value === null ? `cannot judge: ${v.problem ?? 'no data'}` : `${v.figure} was ${formatValue(v.value, v.unit)}`
    out.push(`  ${mark} ${v.threshold.padEnd(width)}  ${what}`)
  }
  return '\n' + out.join('\n') + '\n'
}

/** `1 request was`, `12 requests were` @param {number} n */
function requestsWere (n) {
  return `${count(n)} ${n === 1 ? 'request was' : 'requests were'}`
}

/**
 * @param {import('../../load/summary.js').SampleStats} s
 * @param {(n: number) => string} fmt
 * @param {(n: number) => string} fmtMean
 */
function sampleRow (s, fmt, fmtMean) {
  const q = s.percentiles
  return [fmt(q['1']), fmt(q['2.5']), fmt(q['50']), fmt(q['97.5']), fmtMean(s.mean), fmtMean(s.stdev), fmt(s.min)]
}
