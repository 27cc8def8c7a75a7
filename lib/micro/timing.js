/**
 * The timed loop and the sampling schedule, run inside the worker process.
 *
 * Operations faster than the clock are batched: each sample times `n`
 * calls, with `n` grown during warm-up until a sample lasts `sampleMs`.
 */

let loops = 0

/** Nanoseconds from the monotonic clock. */
export const now = () => Number(process.hrtime.bigint())

/**
 * A new loop function for each use: its own source text, so neither the
 * compilation cache nor shared type feedback ties the case's call site to
 * any other function (the empty baseline, another case).
 * @param {boolean} async
 * @returns {(fn: Function, state: unknown, n: number, sink: unknown[], clock: () => number) => number | Promise<number>}
 */
export function compileLoop (async) {
  loops++
  const source = async
    ? `return async function dynoTimedLoop${loops} (fn, state, n, sink, clock) {
  const start = clock()
  for (let i = 0; i < n; i++) sink[i & 15] = await fn(state)
  return clock() - start
}`
    : `return function dynoTimedLoop${loops} (fn, state, n, sink, clock) {
  const start = clock()
  for (let i = 0; i < n; i++) sink[i & 15] = fn(state)
  return clock() - start
}`
  // eslint-disable-next-line no-new-func -- the point: a loop compiled apart from every other
  return new Function(source)()
}

/**
 * @typedef {object} Schedule
 * @property {number} warmupMs
 * @property {number} timeMs measuring time, after warm-up
 * @property {number} sampleMs how long one sample (batch) should last
 * @property {number} minSamples taken even when they overrun timeMs
 * @property {number} maxSamples
 *
 * @typedef {object} Measurement
 * @property {number} batch calls per sample
 * @property {number} ops calls measured (warm-up excluded)
 * @property {number} timeNs time those calls took
 * @property {number[]} samples nanoseconds per call, one per sample
 */

/**
 * Warms `fn` up, then samples it.
 * @param {Function} fn
 * @param {unknown} state passed to every call
 * @param {boolean} async
 * @param {Schedule} schedule
 * @param {unknown[]} sink where results go, so V8 must compute them
 * @returns {Promise<Measurement>}
 */
export async function measure (fn, state, async, schedule, sink) {
  const loop = compileLoop(async)
  const sampleNs = schedule.sampleMs * 1e6
  const started = now()
  const minEnd = started + schedule.warmupMs * 1e6
  // Tiering up (Sparkplug, Maglev, Turbofan, on-stack replacement) can outlast a short warm-up,
  // and a process measured half-way through it is an outlier: warm-up goes on while the best
  // time per call still improves, up to ten times the asked-for warm-up.
  const maxEnd = started + Math.max(10 * schedule.warmupMs, 200) * 1e6
  const settleNs = Math.max(schedule.warmupMs / 2, 10) * 1e6
  let n = 1
  let perCall = Infinity
  let best = Infinity
  let bestAt = started
  for (;;) {
    const took = await loop(fn, state, n, sink, now)
    perCall = took / n
    const at = now()
    if (took >= sampleNs / 4 && perCall < best * 0.97) bestAt = at
    if (took >= sampleNs / 4) best = Math.min(best, perCall)
    if (took < sampleNs) n = Math.min(n * 2, 2 ** 30)
    if (at >= maxEnd || (at >= minEnd && at - bestAt >= settleNs && took >= sampleNs / 4)) break
  }
  const batch = Math.max(1, Math.round(sampleNs / Math.max(Number.isFinite(best) ? best : perCall, 1e-3)))

  /** @type {number[]} */
  const samples = []
  let timeNs = 0
  while ((timeNs < schedule.timeMs * 1e6 || samples.length < schedule.minSamples) && samples.length < schedule.maxSamples) {
    const took = await loop(fn, state, batch, sink, now)
    samples.push(took / batch)
    timeNs += took
  }
  return { batch, ops: batch * samples.length, timeNs, samples }
}
