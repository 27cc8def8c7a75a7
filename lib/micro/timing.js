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
 * @returns {Loop}
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
 * @typedef {(fn: Function, state: unknown, n: number, sink: unknown[], clock: () => number) => number | Promise<number>} Loop
 *
 * @typedef {object} Warm a case ready to be sampled
 * @property {Loop} loop its timed loop, warmed up with it
 * @property {number} batch calls per sample, so that a sample lasts about sampleMs
 */

/** Nanoseconds of CPU time this process has used (all its threads). */
const cpuNow = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) * 1e3
}

/**
 * Warms `fn` up in a timed loop of its own and sizes its samples.
 * Tiering up (Sparkplug, Maglev, Turbofan, on-stack replacement) can outlast
 * a short warm-up, and a process measured half-way through it is an outlier:
 * warm-up goes on while the best time per call still improves. Its length
 * counts the process's CPU time, so that processes warming up side by side
 * on a busy machine still do the work V8 needs to tier up; ten times the
 * asked-for warm-up in wall time is the most it takes.
 * @param {Function} fn
 * @param {unknown} state passed to every call
 * @param {boolean} async
 * @param {{ warmupMs: number, sampleMs: number }} schedule
 * @param {unknown[]} sink where results go, so V8 must compute them
 * @returns {Promise<Warm>}
 */
export async function warmUp (fn, state, async, schedule, sink) {
  const loop = compileLoop(async)
  const sampleNs = schedule.sampleMs * 1e6
  const started = cpuNow()
  const minEnd = started + schedule.warmupMs * 1e6
  const maxEnd = now() + Math.max(10 * schedule.warmupMs, 200) * 1e6
  const settleNs = Math.max(schedule.warmupMs / 2, 10) * 1e6
  let n = 1
  let perCall = Infinity
  let best = Infinity
  let bestAt = started
  for (;;) {
    const took = await loop(fn, state, n, sink, now)
    perCall = took / n
    const at = cpuNow()
    if (took >= sampleNs / 4 && perCall < best * 0.97) bestAt = at
    if (took >= sampleNs / 4) best = Math.min(best, perCall)
    if (took < sampleNs) n = Math.min(n * 2, 2 ** 30)
    if (now() >= maxEnd || (at >= minEnd && at - bestAt >= settleNs && took >= sampleNs / 4)) break
  }
  const batch = Math.max(1, Math.round(sampleNs / Math.max(Number.isFinite(best) ? best : perCall, 1e-3)))
  return { loop, batch }
}

/**
 * Samples a warmed-up case for `ms` (at least one sample).
 * @param {Warm} warm
 * @param {Function} fn
 * @param {unknown} state
 * @param {number} ms
 * @param {unknown[]} sink
 * @returns {Promise<number[]>} nanoseconds per call, one per sample (a batch of `warm.batch` calls)
 */
export async function sampleFor (warm, fn, state, ms, sink) {
  const samples = []
  let timeNs = 0
  do {
    const took = await warm.loop(fn, state, warm.batch, sink, now)
    samples.push(took / warm.batch)
    timeNs += took
  } while (timeNs < ms * 1e6)
  return samples
}
