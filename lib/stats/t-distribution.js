/**
 * Student's t distribution: its CDF (through the regularized incomplete beta
 * function) and its quantiles, for p-values and confidence intervals on the
 * handful of per-process means a benchmark yields. Small n is the point: the
 * normal approximation would overstate confidence there.
 */

// Lanczos approximation (g = 7, n = 9): about 15 correct digits for x > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7
]

/** ln Γ(x) for x > 0 @param {number} x @returns {number} */
export function logGamma (x) {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x)
  x -= 1
  let sum = LANCZOS[0]
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i] / (x + i)
  const t = x + 7.5
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum)
}

/**
 * The regularized incomplete beta function I_x(a, b).
 * @param {number} x 0..1 @param {number} a @param {number} b
 */
export function incompleteBeta (x, a, b) {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x))
  // The continued fraction converges fast only on this side of the mean; use the symmetry otherwise.
  if (x < (a + 1) / (a + b + 2)) return front * betaContinuedFraction(x, a, b) / a
  return 1 - front * betaContinuedFraction(1 - x, b, a) / b
}

/**
 * Modified Lentz evaluation of the continued fraction for I_x(a, b).
 * @param {number} x @param {number} a @param {number} b
 */
function betaContinuedFraction (x, a, b) {
  const tiny = 1e-300
  let c = 1
  let d = 1 - (a + b) * x / (a + 1)
  if (Math.abs(d) < tiny) d = tiny
  d = 1 / d
  let h = d
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m
    let step = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
    d = 1 + step * d
    c = 1 + step / c
    d = 1 / (Math.abs(d) < tiny ? tiny : d)
    c = Math.abs(c) < tiny ? tiny : c
    h *= d * c
    step = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
    d = 1 + step * d
    c = 1 + step / c
    d = 1 / (Math.abs(d) < tiny ? tiny : d)
    c = Math.abs(c) < tiny ? tiny : c
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < 1e-15) break
  }
  return h
}

/**
 * P(T ≤ t) for Student's t with `df` degrees of freedom (df may be fractional,
 * as Welch's test gives).
 * @param {number} t @param {number} df
 */
export function tCdf (t, df) {
  if (!Number.isFinite(t)) return t > 0 ? 1 : 0
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5)
  return t > 0 ? 1 - tail : tail
}

/**
 * The t such that P(T ≤ t) = p.
 * @param {number} p 0..1 @param {number} df
 * @returns {number}
 */
export function tQuantile (p, df) {
  if (p <= 0) return -Infinity
  if (p >= 1) return Infinity
  if (p < 0.5) return -tQuantile(1 - p, df)
  let low = 0
  let high = 1
  while (tCdf(high, df) < p) high *= 2
  for (let i = 0; i < 200 && high - low > 1e-12 * high; i++) {
    const mid = (low + high) / 2
    if (tCdf(mid, df) < p) low = mid
    else high = mid
  }
  return (low + high) / 2
}
