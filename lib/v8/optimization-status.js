import { nativeHelper } from './natives.js'
import { TIERS } from './tiers.js'

/**
 * Which tier runs a function now: V8's `%GetOptimizationStatus` bit field,
 * read without hard-coding its layout. The bits moved between V8 versions
 * (Node 20-24 put "turbofanned" at bit 6, Node 25+ at bit 5), so the reader
 * first puts probe functions into known states (interpreted, Sparkplug
 * baseline, Maglev where enabled, Turbofan, marked for optimization) and
 * learns from their statuses which bits mean what on this V8.
 *
 * @typedef {'lazy' | typeof TIERS[number] | 'unknown'} Tier
 * `lazy`: never compiled (never called).
 *
 * @typedef {object} FunctionStatus
 * @property {Tier} tier
 * @property {boolean} optimized runs Maglev or Turbofan code
 * @property {boolean} markedForOptimization queued for an optimizing compiler
 * @property {number} raw the status bits as V8 returned them
 *
 * @typedef {object} StatusBits the bits learned for each state on this V8
 * @property {number} lazy
 * @property {number} interpreted
 * @property {number} baseline
 * @property {number} maglev
 * @property {number} turbofan
 * @property {number} optimized shared by Maglev and Turbofan code
 * @property {number} markedForOptimization
 *
 * @typedef {((fn: Function) => FunctionStatus) & { bits: StatusBits, tiers: Tier[] }} OptimizationStatusReader
 */

let probeCount = 0

/**
 * A new function V8 has never seen: the source is unique so the compilation
 * cache cannot hand back one with feedback or optimized code already attached.
 * Natives calls on a shared, already-optimized function can abort the process.
 */
function freshProbe () {
  probeCount++
  // eslint-disable-next-line no-new-func -- each probe needs source no other function has
  return /** @type {(a: number) => number} */ (new Function(`return function dynoStatusProbe${probeCount} (a) { return a + ${probeCount} }`)())
}

/**
 * @returns {OptimizationStatusReader}
 */
export function createOptimizationStatusReader () {
  const getStatus = nativeHelper('return %GetOptimizationStatus(fn)')
  if (!getStatus) throw new Error('this V8 has no %GetOptimizationStatus')
  const prepare = nativeHelper('%PrepareFunctionForOptimization(fn)')
  const optimizeTurbofan = nativeHelper('%OptimizeFunctionOnNextCall(fn)')
  const optimizeMaglev = nativeHelper('%OptimizeMaglevOnNextCall(fn)')
  const compileBaseline = nativeHelper('%CompileBaseline(fn)')
  // Asking for Maglev when it is off prints to stdout, so ask first whether each tier is on.
  const enabled = (/** @type {string} */ name) => nativeHelper(`return %Is${name}Enabled()`)?.() === true
  const status = (/** @type {Function} */ fn) => /** @type {number} */ (getStatus(fn))

  const lazy = status(freshProbe())
  const interpreted = freshProbe()
  interpreted(1)
  const base = status(interpreted)

  /** @param {((fn: Function) => void) | null} optimize */
  const optimizedState = (optimize) => {
    if (!prepare || !optimize) return base
    const fn = freshProbe()
    prepare(fn)
    fn(1)
    fn(2)
    optimize(fn)
    fn(3)
    return status(fn)
  }
  const turbofan = enabled('Turbofan') ? optimizedState(optimizeTurbofan) : base
  const maglev = enabled('Maglev') ? optimizedState(optimizeMaglev) : base

  let baseline = base
  if (compileBaseline && enabled('Sparkplug')) {
    const fn = freshProbe()
    fn(1)
    compileBaseline(fn)
    baseline = status(fn)
  }

  let marked = base
  if (prepare && optimizeTurbofan && turbofan !== base) {
    const fn = freshProbe()
    prepare(fn)
    fn(1)
    optimizeTurbofan(fn) // not called again: stays marked
    marked = status(fn)
  }

  const common = base & turbofan & maglev & baseline & lazy
  const turbofanBits = turbofan & ~base
  const maglevBits = maglev & ~base
  const shared = turbofanBits & maglevBits
  /** @type {StatusBits} */
  const bits = {
    lazy: lazy & ~base,
    interpreted: base & ~common,
    baseline: baseline & ~base,
    turbofan: maglevBits ? turbofanBits & ~maglevBits : turbofanBits,
    maglev: maglevBits & ~turbofanBits,
    optimized: shared,
    markedForOptimization: marked & ~base
  }
  /** @type {Tier[]} */
  const tiers = ['lazy', ...TIERS]
  const available = tiers.filter((tier) => bits[/** @type {keyof StatusBits} */ (tier)] !== 0)

  const reader = (/** @type {Function} */ fn) => {
    if (typeof fn !== 'function') throw new TypeError('the optimization status reader takes a function')
    const raw = status(fn)
    /** @type {Tier} */
    let tier = 'unknown'
    if (bits.turbofan && (raw & bits.turbofan) === bits.turbofan) tier = 'turbofan'
    else if (bits.maglev && (raw & bits.maglev) === bits.maglev) tier = 'maglev'
    else if (bits.baseline && (raw & bits.baseline) === bits.baseline) tier = 'baseline'
    else if (bits.interpreted && (raw & bits.interpreted) === bits.interpreted) tier = 'interpreted'
    else if (bits.lazy && (raw & bits.lazy) === bits.lazy) tier = 'lazy'
    return {
      tier,
      optimized: tier === 'turbofan' || tier === 'maglev',
      markedForOptimization: bits.markedForOptimization !== 0 && (raw & bits.markedForOptimization) === bits.markedForOptimization,
      raw
    }
  }
  return Object.assign(reader, { bits, tiers: available })
}
