import { dynoError, errorInfo } from '../../errors.js'
import { decodeHistogram } from '../../load/histogram.js'

/**
 * Thresholds on a load's result, as `dyno load --fail-on` takes them:
 * `p99<200ms,errors=0,rps>5000`. Pure: `parseThresholds` turns the text into
 * thresholds (or throws a usage error naming what is wrong), `judgeThresholds`
 * judges them on a LoadResult, `thresholdsOutcome` says what the verdicts mean
 * as an exit code and one line each. Any command holding a LoadResult (a
 * load, a merged load) judges alike.
 *
 * Unlike tools that pass a threshold they cannot judge, a threshold on an
 * unknown figure, in a unit that does not fit its figure, or judged on a run
 * where no request completed is never a pass.
 */

/** @typedef {'<' | '<=' | '>' | '>=' | '='} Operator */
/** @typedef {'ms' | 'req/s' | 'count' | '%'} Unit the unit a figure is judged in */

/**
 * @typedef {object} Threshold
 * @property {string} threshold the threshold as written, without spaces: `p99<200ms`
 * @property {string} figure `p99`, `p99.9`, `mean`, `min`, `max`, `rps`, `requests`, `errors`, `non2xx`, `error-rate`, `non2xx-rate`
 * @property {Operator} op
 * @property {number} limit in `unit`: a latency written as `0.2s` or `200000us` is 200 ms, `error-rate<0.01` is 1 %
 * @property {Unit} unit
 */

/**
 * @typedef {Threshold & { value: number | null, ok: boolean, problem?: string }} Verdict
 *   `value`, the figure on the result in `unit`; null, with `problem` saying why,
 *   when the result cannot judge it (then `ok` is false)
 */

/** The figures, as a usage error lists them. */
export const THRESHOLD_FIGURES = 'p<N> (p50, p90, p99, p99.9, any percentile), mean, min, max, rps, requests, errors, non2xx, error-rate, non2xx-rate'

const OPERATORS = /** @type {const} */ (['<=', '>=', '<', '>', '='])

/** Latency units, to milliseconds. */
const TIME_UNITS = /** @type {Record<string, number>} */ ({ us: 0.001, µs: 0.001, ms: 1, s: 1000 })

/**
 * What each figure is, and the unit it is judged in.
 * @type {Record<string, { unit: Unit, what: string }>}
 */
const FIGURES = {
  mean: { unit: 'ms', what: 'the mean latency' },
  min: { unit: 'ms', what: 'the lowest latency' },
  max: { unit: 'ms', what: 'the highest latency' },
  rps: { unit: 'req/s', what: 'completed requests per second' },
  requests: { unit: 'count', what: 'the number of completed requests' },
  errors: { unit: 'count', what: 'the number of errors' },
  non2xx: { unit: 'count', what: 'the number of responses outside 2xx' },
  'error-rate': { unit: '%', what: 'errors in % of the requests sent' },
  'non2xx-rate': { unit: '%', what: 'responses outside 2xx in % of the requests sent' }
}

/**
 * Thresholds from their text: comma-separated, each `<figure><op><number>[unit]`.
 * @param {string | readonly string[]} text one `--fail-on` value, or several (each may hold several)
 * @param {{ flag?: string }} [options] the flag named in the usage errors
 * @returns {Threshold[]}
 * @throws {import('../../errors.js').DynoError} DYNO_BAD_THRESHOLD, on the first threshold that is wrong
 */
export function parseThresholds (text, { flag = '--fail-on' } = {}) {
  const texts = typeof text === 'string' ? [text] : text
  /** @type {Threshold[]} */
  const thresholds = []
  for (const one of texts) {
    const items = one.split(',')
    for (const item of items) {
      const compact = item.replace(/\s+/g, '')
      if (compact === '') {
        throw one.trim() === ''
          ? dynoError('DYNO_BAD_THRESHOLD.none', { flag, figures: THRESHOLD_FIGURES })
          : dynoError('DYNO_BAD_THRESHOLD.emptyBetweenCommas', { flag, text: one })
      }
      thresholds.push(parseOne(compact, item.trim(), flag))
    }
  }
  return thresholds
}

/**
 * @param {string} text one threshold, without spaces
 * @param {string} written as written, for the messages
 * @param {string} flag
 * @returns {Threshold}
 */
function parseOne (text, written, flag) {
  const bad = (/** @type {string} */ why) => dynoError('DYNO_BAD_THRESHOLD.bad', { flag, written, why })
  const at = text.search(/[<>=!]/)
  if (at === -1) throw bad(`not a threshold; write it as a figure, an operator (<, <=, >, >=, =) and a number, like p99<200ms; the figures are ${THRESHOLD_FIGURES}`)
  const name = text.slice(0, at).toLowerCase()
  const rest = text.slice(at)
  const op = OPERATORS.find((o) => rest.startsWith(o))
  if (name === '') throw bad(`no figure before the operator; the figures are ${THRESHOLD_FIGURES}`)
  const figure = figureOf(name)
  if (!figure && /^p\d+(\.\d+)?$/.test(name)) throw bad(`${name} is no percentile: a percentile is above 0 and at most 100, like p99 or p99.9`)
  if (!figure) throw bad(`unknown figure "${name}"; the figures are ${THRESHOLD_FIGURES}`)
  if (!op || /^[<>=!]/.test(rest.slice(op.length))) {
    throw bad(`"${/^[<>=!]+/.exec(rest)?.[0]}" is not an operator; the operators are <, <=, >, >=, =`)
  }
  const after = rest.slice(op.length)
  if (after === '') throw bad(`no number after ${op}; a threshold reads like p99<200ms or errors=0`)
  const m = /^(\d+(?:\.\d*)?|\.\d+)([a-zµ%/]*)$/i.exec(after)
  if (!m) throw bad(`"${after}" is not a number${figure.unit === 'ms' ? ' with a unit (us, ms, s)' : ''}; a threshold reads like p99<200ms or errors=0`)
  const number = Number(m[1])
  const unit = m[2].toLowerCase()
  return { threshold: text, figure: figure.name, op, limit: limitIn(figure, number, unit, bad), unit: figure.unit }
}

/**
 * @param {string} name lower case
 * @returns {{ name: string, unit: Unit, what: string, percentile?: number } | null}
 */
function figureOf (name) {
  if (Object.hasOwn(FIGURES, name)) return { name, ...FIGURES[name] }
  const m = /^p(\d+(?:\.\d+)?)$/.exec(name)
  if (!m) return null
  const percentile = Number(m[1])
  if (!(percentile > 0 && percentile <= 100)) return null
  return { name: `p${percentile}`, unit: 'ms', what: `the ${percentile}th percentile of latency`, percentile }
}

/**
 * The limit in the figure's own unit.
 * @param {{ name: string, unit: Unit, what: string }} figure
 * @param {number} number
 * @param {string} unit as written, lower case ('' for none)
 * @param {(why: string) => Error} bad
 */
function limitIn (figure, number, unit, bad) {
  switch (figure.unit) {
    case 'ms': {
      if (unit === '') return number
      const factor = TIME_UNITS[unit]
      if (factor === undefined) throw bad(`${figure.name} is ${figure.what}: its unit is us, ms or s (a bare number is ms), not ${unit}`)
      return tidy(number * factor)
    }
    case '%': {
      if (unit === '%') {
        if (number > 100) throw bad(`${figure.name} is ${figure.what}: at most 100%, not ${number}%`)
        return number
      }
      if (unit !== '') throw bad(`${figure.name} is ${figure.what}: write it in % (1%) or as a fraction (0.01), not in ${unit}`)
      if (number > 1) throw bad(`${figure.name} is ${figure.what}: a bare number is a fraction from 0 to 1; write ${number}% for a percentage`)
      return tidy(number * 100)
    }
    default:
      if (unit !== '') throw bad(`${figure.name} is ${figure.what}: it takes a plain number, not ${unit}`)
      return number
  }
}

/**
 * Each threshold judged on a result.
 * @param {readonly Threshold[]} thresholds
 * @param {import('../../load/summary.js').LoadResult} result
 * @returns {Verdict[]}
 */
export function judgeThresholds (thresholds, result) {
  /** @type {import('hdr-histogram-js').Histogram | null | undefined} decoded once, when a percentile needs it */
  let histogram
  const readHistogram = () => {
    if (histogram === undefined) histogram = result.latency.histogram?.data ? decodeHistogram(result.latency.histogram.data) : null
    return histogram
  }
  return thresholds.map((threshold) => {
    if (!(result.requests.completed > 0)) return { ...threshold, value: null, ok: false, problem: 'no request completed' }
    const value = figureValue(threshold.figure, result, readHistogram)
    if (value === null) return { ...threshold, value: null, ok: false, problem: 'the result holds no latency histogram to read it from' }
    return { ...threshold, value, ok: holds(value, threshold.op, threshold.limit) }
  })
}

/**
 * @param {string} figure
 * @param {import('../../load/summary.js').LoadResult} result
 * @param {() => import('hdr-histogram-js').Histogram | null} readHistogram
 * @returns {number | null}
 */
function figureValue (figure, result, readHistogram) {
  const { requests, latency } = result
  switch (figure) {
    case 'mean': return latency.mean
    case 'min': return latency.min
    case 'max': return latency.max
    case 'rps': return requests.average
    case 'requests': return requests.completed
    case 'errors': return result.errors.total
    case 'non2xx': return result.non2xx
    case 'error-rate': return rate(result.errors.total, requests.sent)
    case 'non2xx-rate': return rate(result.non2xx, requests.sent)
  }
  const key = figure.slice(1)
  // The percentiles the result lists are the ones its tables show; any other comes from its histogram.
  if (Object.hasOwn(latency.percentiles, key)) return latency.percentiles[key]
  const histogram = readHistogram()
  if (!histogram) return null
  // Within the exact extremes, as the result's own percentiles are: a bucket's top may pass the max.
  const us = histogram.getValueAtPercentile(Number(key))
  return Math.min(latency.max, Math.max(latency.min, Math.round(us) / 1000))
}

/** In % of what was sent; every completed request was sent. @param {number} n @param {number} sent */
function rate (n, sent) {
  return sent > 0 ? tidy(n * 100 / sent) : 0
}

/** @param {number} value @param {Operator} op @param {number} limit */
function holds (value, op, limit) {
  switch (op) {
    case '<': return value < limit
    case '<=': return value <= limit
    case '>': return value > limit
    case '>=': return value >= limit
    case '=': return value === limit
  }
}

/** Twelve significant digits: 0.07 * 100 is 7, not 7.000000000000001. @param {number} x */
function tidy (x) {
  return Number(x.toPrecision(12))
}

/**
 * What the verdicts mean: exit code 2 (DYNO_THRESHOLD_NO_DATA) when one
 * cannot be judged, 3 (DYNO_THRESHOLD_BROKEN) when one is broken, 0 when all
 * hold; with one line for each threshold that did not hold.
 * @param {readonly Verdict[]} verdicts
 * @returns {{ exitCode: 0 | 2 | 3, code: 'DYNO_THRESHOLD_NO_DATA' | 'DYNO_THRESHOLD_BROKEN' | null, lines: string[] }}
 */
export function thresholdsOutcome (verdicts) {
  const lines = verdicts.filter((v) => !v.ok).map(verdictLine)
  if (verdicts.some((v) => v.value === null)) return { exitCode: 2, code: 'DYNO_THRESHOLD_NO_DATA', lines }
  if (lines.length > 0) return { exitCode: 3, code: 'DYNO_THRESHOLD_BROKEN', lines }
  return { exitCode: 0, code: null, lines }
}

/**
 * `threshold p99<200ms broken: p99 was 312.4 ms`, `cannot judge p99<200ms: no request completed`,
 * `threshold p99<200ms held: p99 was 1.2 ms`.
 * @param {Verdict} verdict
 */
export function verdictLine (verdict) {
  if (verdict.value === null) return errorInfo('DYNO_THRESHOLD_NO_DATA', { threshold: verdict.threshold, problem: verdict.problem ?? 'no data' }).message
  const value = formatValue(verdict.value, verdict.unit)
  if (!verdict.ok) return errorInfo('DYNO_THRESHOLD_BROKEN', { threshold: verdict.threshold, figure: verdict.figure, value }).message
  return `threshold ${verdict.threshold} held: ${verdict.figure} was ${value}`
}

/** @param {number} value @param {Unit} unit */
export function formatValue (value, unit) {
  const n = String(Number(value.toFixed(3)))
  switch (unit) {
    case 'ms': return `${n} ms`
    case 'req/s': return `${n} req/s`
    case '%': return `${n}%`
    default: return n
  }
}
