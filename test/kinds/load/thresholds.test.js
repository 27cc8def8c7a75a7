import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DynoError } from '../../../lib/errors.js'
import { LatencyRecorder } from '../../../lib/load/histogram.js'
import { resolveOptions } from '../../../lib/load/options.js'
import { summarize } from '../../../lib/load/summary.js'
import { judgeThresholds, parseThresholds, thresholdsOutcome, verdictLine } from '../../../lib/kinds/load/thresholds.js'

/** @typedef {import('../../../lib/load/summary.js').LoadResult} LoadResult */

/**
 * A one-second run whose 1000 responses took 1, 2, … 1000 µs: below 2048 µs
 * HdrHistogram keeps every microsecond, so any percentile is exact (p99.5 is
 * 995 µs). 1250 requests sent, 250 timed out (20%), 100 answered 503 (8%).
 * @param {{ responses?: number }} [shape]
 * @returns {LoadResult}
 */
function recordedResult ({ responses = 1000 } = {}) {
  const latency = new LatencyRecorder()
  for (let us = 1; us <= responses; us++) latency.record(us)
  /** @type {Record<string, number>} */
  const statusCodes = responses > 0 ? { 200: responses - 100, 503: 100 } : {}
  const raw = {
    startedAt: 0,
    durationMs: 1000,
    sent: responses + 250,
    responses,
    pending: 0,
    bytes: 0,
    dropped: 0,
    peakConnections: 1,
    statusCodes,
    errors: { timeout: 250, reset: 0, refused: 0, closed: 0, invalid: 0, tls: 0, goaway: 0, stream: 0, other: 0 },
    latency,
    perSecond: { responses: [responses], bytes: [0] },
    targetRefusing: false,
    failure: null
  }
  return summarize(raw, resolveOptions({ url: 'http://127.0.0.1:3000/' }), { interrupted: false, cpuMs: 0, host: 'here', pid: 1, rawWrite: true })
}

/** @param {string} text @param {LoadResult} result */
function judgeOne (text, result) {
  const [verdict] = judgeThresholds(parseThresholds(text), result)
  return verdict
}

/** @param {string} text */
function parseError (text) {
  try {
    parseThresholds(text)
  } catch (err) {
    assert.ok(err instanceof DynoError, String(err))
    assert.equal(err.code, 'DYNO_BAD_THRESHOLD')
    assert.equal(err.exitCode, 2)
    assert.doesNotMatch(err.message, /\n/)
    return err.message
  }
  assert.fail(`${text} parsed`)
}

test('a threshold parses to its figure, operator and limit in the figure\'s own unit', () => {
  assert.deepEqual(parseThresholds('p99<200ms,errors=0,rps>5000'), [
    { threshold: 'p99<200ms', figure: 'p99', op: '<', limit: 200, unit: 'ms' },
    { threshold: 'errors=0', figure: 'errors', op: '=', limit: 0, unit: 'count' },
    { threshold: 'rps>5000', figure: 'rps', op: '>', limit: 5000, unit: 'req/s' }
  ])
  const ops = parseThresholds('mean<1,mean<=1,mean>1,mean>=1,mean=1').map((t) => t.op)
  assert.deepEqual(ops, ['<', '<=', '>', '>=', '='])
  // Latency in us, µs, ms or s; a bare number is ms.
  const limits = parseThresholds('max<250us,max<250µs,max<1.5ms,max<0.2s,max<1.1s,max<7').map((t) => t.limit)
  assert.deepEqual(limits, [0.25, 0.25, 1.5, 200, 1100, 7])
  // Rates in %, or as a plain fraction of the requests sent.
  assert.deepEqual(parseThresholds('error-rate<1%,error-rate<=0.07,non2xx-rate<0.5%,non2xx-rate=1').map((t) => [t.limit, t.unit]),
    [[1, '%'], [7, '%'], [0.5, '%'], [100, '%']])
  // Spaces, upper case, several flags, any percentile.
  assert.deepEqual(parseThresholds([' P99.9 <= 2 S ', 'p99.99>.5ms', 'requests>=10,non2xx<3']).map((t) => [t.threshold, t.figure, t.limit]),
    [['P99.9<=2S', 'p99.9', 2000], ['p99.99>.5ms', 'p99.99', 0.5], ['requests>=10', 'requests', 10], ['non2xx<3', 'non2xx', 3]])
  assert.equal(parseThresholds('p100<1s')[0].figure, 'p100')
})

test('a threshold dyno cannot judge is a usage error, in one line that says what is wrong', () => {
  // An unknown figure: the message lists the ones dyno knows.
  const unknown = parseError('p99<1s,latency<200ms')
  assert.match(unknown, /^--fail-on "latency<200ms": unknown figure "latency"; the figures are p<N> .*mean, min, max, rps, requests, errors, non2xx, error-rate, non2xx-rate$/)
  assert.match(parseError('p99x<1'), /unknown figure "p99x"/)
  assert.match(parseError('p0<1ms'), /p0 is no percentile/)
  assert.match(parseError('p101<1ms'), /p101 is no percentile/)
  // Malformed.
  assert.match(parseError('p99'), /"p99": not a threshold; write it as a figure, an operator/)
  assert.match(parseError('<200ms'), /no figure before the operator; the figures are/)
  assert.match(parseError('p99<'), /no number after </)
  assert.match(parseError('p99=<1'), /"=<" is not an operator; the operators are <, <=, >, >=, =/)
  assert.match(parseError('p99==1'), /"==" is not an operator/)
  assert.match(parseError('errors!=0'), /"!=" is not an operator/)
  assert.match(parseError('p99<-5ms'), /"-5ms" is not a number/)
  assert.match(parseError('p99<fast'), /"fast" is not a number/)
  assert.match(parseError('errors=0,'), /has an empty threshold between its commas/)
  assert.match(parseError(''), /--fail-on needs thresholds/)
  // A unit that does not fit the figure.
  assert.match(parseError('rps<3ms'), /"rps<3ms": rps is completed requests per second: it takes a plain number, not ms/)
  assert.match(parseError('errors<1%'), /errors is the number of errors: it takes a plain number, not %/)
  assert.match(parseError('p99<1h'), /its unit is us, ms or s \(a bare number is ms\), not h/)
  assert.match(parseError('mean<5%'), /not %/)
  assert.match(parseError('error-rate<5ms'), /write it in % \(1%\) or as a fraction \(0.01\), not in ms/)
  assert.match(parseError('error-rate<5'), /a bare number is a fraction from 0 to 1; write 5% for a percentage/)
  assert.match(parseError('non2xx-rate<150%'), /at most 100%, not 150%/)
  // The flag the message names is the caller's.
  assert.throws(() => parseThresholds('nope<1', { flag: '--gate' }), /^DynoError: --gate "nope<1": unknown figure/)
})

test('each figure is read from the result in its unit', () => {
  const result = recordedResult()
  /** @type {Record<string, number>} */
  const expected = {
    p50: 0.5,
    p99: 0.99,
    'p99.9': 0.999,
    mean: result.latency.mean,
    min: 0.001,
    max: 1,
    rps: 1000,
    requests: 1000,
    errors: 250,
    non2xx: 100,
    'error-rate': 20,
    'non2xx-rate': 8
  }
  for (const [figure, value] of Object.entries(expected)) {
    assert.equal(judgeOne(`${figure}>=0`, result).value, value, figure)
  }
  assert.ok(Math.abs(result.latency.mean - 0.5005) <= 0.001, String(result.latency.mean))
})

test('a percentile the result does not list is read exactly from its histogram', () => {
  const result = recordedResult()
  for (const p of ['95', '99.5', '12.5', '99.95']) assert.ok(!(p in result.latency.percentiles), `p${p} is not listed`)
  assert.equal(judgeOne('p95<1s', result).value, 0.95)
  assert.equal(judgeOne('p99.5<1s', result).value, 0.995)
  assert.equal(judgeOne('p12.5<1s', result).value, 0.125)
  assert.equal(judgeOne('p99.95<1s', result).value, 1)
  // Never past the exact max, though a bucket's top may be.
  assert.equal(judgeOne('p100<1s', result).value, result.latency.max)
  // Without its histogram, a result can still judge the percentiles it lists, and says why it cannot judge others.
  const bare = /** @type {LoadResult} */ ({ ...result, latency: { ...result.latency, histogram: /** @type {any} */ (undefined) } })
  assert.equal(judgeOne('p99<1s', bare).value, 0.99)
  const p95 = judgeOne('p95<1s', bare)
  assert.deepEqual([p95.value, p95.ok, p95.problem], [null, false, 'the result holds no latency histogram to read it from'])
})

test('every operator, at its limit and on either side, in every unit', () => {
  const result = recordedResult()
  const cases = /** @type {[string, boolean][]} */ ([
    ['p99.5<995us', false], ['p99.5<996us', true], ['p99.5<0.995ms', false], ['p99.5<0.996', true],
    ['p99.5<=995us', true], ['p99.5<=994us', false], ['p99.5<=0.000995s', true],
    ['p99.5>994us', true], ['p99.5>995us', false], ['p99.5>=995us', true], ['p99.5>=996us', false],
    ['p99.5=995us', true], ['p99.5=0.995ms', true], ['p99.5=0.000995s', true], ['p99.5=994µs', false],
    ['max<1s', true], ['max<1ms', false], ['max=1', true], ['min>=1us', true], ['min>1us', false], ['mean<0.6', true],
    ['rps>=1000', true], ['rps>1000', false], ['rps<0.001', false],
    ['requests=1000', true], ['requests>1000000', false], ['errors=0', false], ['errors<=250', true], ['non2xx<100', false], ['non2xx>=100', true],
    ['error-rate=20%', true], ['error-rate=0.2', true], ['error-rate<20%', false], ['error-rate<=0.2', true], ['error-rate>19.9%', true],
    ['non2xx-rate=8%', true], ['non2xx-rate=0.08', true], ['non2xx-rate<0.08', false], ['non2xx-rate>=7.99%', true], ['non2xx-rate<1%', false]
  ])
  for (const [text, ok] of cases) assert.equal(judgeOne(text, result).ok, ok, text)
})

test('verdicts: 0 when every threshold holds, 3 and one line per broken one', () => {
  const result = recordedResult()
  const held = judgeThresholds(parseThresholds('p99<60s,requests>0'), result)
  assert.deepEqual(held[0], { threshold: 'p99<60s', figure: 'p99', op: '<', limit: 60000, unit: 'ms', value: 0.99, ok: true })
  assert.deepEqual(thresholdsOutcome(held), { exitCode: 0, code: null, lines: [] })
  assert.equal(verdictLine(held[0]), 'threshold p99<60s held: p99 was 0.99 ms')
  const verdicts = judgeThresholds(parseThresholds('p99<60s,p99.5<0.5ms,errors=0,rps>5000,error-rate<1%'), result)
  assert.deepEqual(thresholdsOutcome(verdicts), {
    exitCode: 3,
    code: 'DYNO_THRESHOLD_BROKEN',
    lines: [
      'threshold p99.5<0.5ms broken: p99.5 was 0.995 ms',
      'threshold errors=0 broken: errors was 250',
      'threshold rps>5000 broken: rps was 1000 req/s',
      'threshold error-rate<1% broken: error-rate was 20%'
    ]
  })
})

test('a threshold judged on a run where no request completed is not a pass: exit 2', () => {
  const result = recordedResult({ responses: 0 })
  assert.equal(result.requests.completed, 0)
  // Even those that would read 0 and hold (errors, requests) cannot be judged on nothing.
  const verdicts = judgeThresholds(parseThresholds('p99<200ms,requests<10,error-rate<=100%,rps<5000'), result)
  for (const v of verdicts) assert.deepEqual([v.value, v.ok, v.problem], [null, false, 'no request completed'], v.threshold)
  assert.deepEqual(thresholdsOutcome(verdicts), {
    exitCode: 2,
    code: 'DYNO_THRESHOLD_NO_DATA',
    lines: [
      'cannot judge p99<200ms: no request completed',
      'cannot judge requests<10: no request completed',
      'cannot judge error-rate<=100%: no request completed',
      'cannot judge rps<5000: no request completed'
    ]
  })
})

test('a verdict is plain data, as --json prints it', () => {
  const [verdict] = judgeThresholds(parseThresholds('error-rate<0.01'), recordedResult())
  assert.deepEqual(JSON.parse(JSON.stringify(verdict)), { threshold: 'error-rate<0.01', figure: 'error-rate', op: '<', limit: 1, unit: '%', value: 20, ok: false })
})
