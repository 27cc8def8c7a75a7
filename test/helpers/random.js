/**
 * The one seeded random generator of the tests and benchmarks, so that every
 * simulation is deterministic and none inherits a weak generator: sfc32 (the
 * Small Fast Chaotic generator: 128 bits of state, a period of at least 2^32
 * and about 2^127 on average, and no known failure in PractRand or
 * TestU01's BigCrush). It works on 32-bit integers only, so JavaScript
 * computes it exactly, where an LCG on doubles loses bits once its product
 * passes 2^53.
 */

/**
 * @param {number} seed any integer; the same seed gives the same sequence
 * @returns {{ next32: () => number, uniform: () => number, normal: () => number }}
 *   next32: an integer in [0, 2^32); uniform: in (0, 1), 53 bits;
 *   normal: a standard normal deviate (Box–Muller)
 */
export function seededRandom (seed) {
  let a = 0x9e3779b9
  let b = seed | 0
  let c = Math.floor(seed / 2 ** 32) | 0
  let d = 1
  const next32 = () => {
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return t >>> 0
  }
  // Mixes the seed through the state before the first value is used.
  for (let i = 0; i < 16; i++) next32()

  // 53 random bits, and half a step off 0, so that log(uniform()) is finite.
  const uniform = () => ((next32() >>> 5) * 2 ** 26 + (next32() >>> 6) + 0.5) / 2 ** 53
  /** @type {number | null} */
  let spare = null
  const normal = () => {
    if (spare !== null) {
      const z = spare
      spare = null
      return z
    }
    const r = Math.sqrt(-2 * Math.log(uniform()))
    const angle = 2 * Math.PI * uniform()
    spare = r * Math.sin(angle)
    return r * Math.cos(angle)
  }
  return { next32, uniform, normal }
}
