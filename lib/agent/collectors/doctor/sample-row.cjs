'use strict'
/**
 * A sample as the main thread takes it: a row of numbers, so that a tick
 * only copies figures into shared memory. Building objects and text from
 * them (rowToSample) is the worker's job.
 *
 * Running figures (loop idle time, requests, GC pauses) are kept as totals
 * since the start; a sample's figure for its interval is the difference to
 * the row before.
 */
const { round } = require('./round.cjs')

/** GC kinds by the `kind` of a 'gc' performance entry; the last is for any other. */
const GC_KINDS = ['scavenge', 'minorMarkSweep', 'markCompact', 'incremental', 'weakCallbacks', 'other']
const GC_KIND_INDEX = { 1: 0, 2: 1, 4: 2, 8: 3, 16: 4 }
const GC_OTHER = GC_KINDS.length - 1

/**
 * The counters the main thread's observers keep (a Float64Array), copied
 * into every row: requests started and finished, the longest GC pause since
 * the last row, and per GC kind the pauses and their ms, all totals but the
 * longest pause.
 */
const COUNTER = { httpStarted: 0, httpFinished: 1, gcMax: 2, gcKinds: 3 }
const COUNTER_LENGTH = COUNTER.gcKinds + 2 * GC_KINDS.length

/**
 * A row: when it was taken (epoch ms), the loop's idle time so far (ms),
 * what the tick before cost (ms), the loop delay in the interval (min, p50,
 * p99, max, probes), then the counters.
 */
const ROW = { t: 0, idle: 1, self: 2, delay: 3, counters: 8 }
const ROW_LENGTH = ROW.counters + COUNTER_LENGTH

/**
 * @param {Float64Array} counters
 * @param {number | undefined} kind the `detail.kind` of a 'gc' entry
 * @param {number} ms its duration
 */
function countGc (counters, kind, ms) {
  const index = GC_KIND_INDEX[/** @type {keyof typeof GC_KIND_INDEX} */ (kind)] ?? GC_OTHER
  counters[COUNTER.gcKinds + 2 * index]++
  counters[COUNTER.gcKinds + 2 * index + 1] += ms
  if (ms > counters[COUNTER.gcMax]) counters[COUNTER.gcMax] = ms
}

/**
 * The sample a row holds, its running figures made into the interval's
 * since `before` (the row before it, or the figures when sampling started).
 * @param {Float64Array} row
 * @param {Float64Array} before
 */
function rowToSample (row, before) {
  const c = ROW.counters
  const span = row[ROW.t] - before[ROW.t]
  const idle = row[ROW.idle] - before[ROW.idle]
  const n = row[ROW.delay + 4]
  /** @type {Record<string, [number, number] | number>} */
  const gc = {}
  for (let k = 0; k < GC_KINDS.length; k++) {
    const at = c + COUNTER.gcKinds + 2 * k
    const pauses = row[at] - before[at]
    if (pauses > 0) gc[GC_KINDS[k]] = [pauses, round(row[at + 1] - before[at + 1], 3)]
  }
  gc.max = round(row[c + COUNTER.gcMax], 3)
  const started = row[c + COUNTER.httpStarted]
  const finished = row[c + COUNTER.httpFinished]
  return {
    t: row[ROW.t],
    delay: n > 0
      ? { min: round(row[ROW.delay], 3), p50: round(row[ROW.delay + 1], 3), p99: round(row[ROW.delay + 2], 3), max: round(row[ROW.delay + 3], 3), n }
      : null,
    elu: span > 0 ? round(Math.min(1, Math.max(0, 1 - idle / span)), 4) : 0,
    gc,
    http: { started: started - before[c + COUNTER.httpStarted], finished: finished - before[c + COUNTER.httpFinished], inFlight: started - finished },
    self: round(row[ROW.self], 3)
  }
}

module.exports = { COUNTER, COUNTER_LENGTH, ROW, ROW_LENGTH, countGc, rowToSample }
