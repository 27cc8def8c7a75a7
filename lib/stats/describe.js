/**
 * Descriptive statistics over small arrays of numbers (per-second samples,
 * benchmark rounds, loop delays). Large distributions go through
 * HdrHistogram instead. On no data every figure is 0.
 */

/** @param {ArrayLike<number>} xs */
export function sum (xs) {
  let total = 0
  for (let i = 0; i < xs.length; i++) total += xs[i]
  return total
}

/** @param {ArrayLike<number>} xs */
export function mean (xs) {
  return xs.length === 0 ? 0 : sum(xs) / xs.length
}

/**
 * Sample standard deviation (n - 1).
 * @param {ArrayLike<number>} xs
 */
export function stdev (xs) {
  if (xs.length < 2) return 0
  const m = mean(xs)
  let squares = 0
  for (let i = 0; i < xs.length; i++) squares += (xs[i] - m) ** 2
  return Math.sqrt(squares / (xs.length - 1))
}

/**
 * The middle value (the mean of the two middle ones for an even count).
 * @param {ArrayLike<number>} xs
 */
export function median (xs) {
  if (xs.length === 0) return 0
  const sorted = Array.from(xs).sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/**
 * The p-th percentile by nearest rank, as HdrHistogram reports it.
 * @param {number[]} sorted ascending
 * @param {number} p 0..100
 */
export function percentile (sorted, p) {
  if (sorted.length === 0) return 0
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]
}

/**
 * @param {number[]} samples
 * @param {number[]} percentiles
 */
export function describe (samples, percentiles) {
  const sorted = [...samples].sort((a, b) => a - b)
  /** @type {Record<string, number>} */
  const at = {}
  for (const p of percentiles) at[String(p)] = percentile(sorted, p)
  return {
    mean: mean(sorted),
    stdev: stdev(sorted),
    min: sorted.length ? sorted[0] : 0,
    max: sorted.length ? sorted[sorted.length - 1] : 0,
    percentiles: at
  }
}
