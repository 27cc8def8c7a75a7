/**
 * One warm round of dyno compare --load: both versions run side by side and
 * are loaded at the same time, each by connections of its own, so that
 * whatever the machine does during the round (another job taking a core,
 * the host taking the CPU away from a virtual machine for a few
 * milliseconds) falls on both alike. On a shared 2-core machine, loads of
 * the two taken one after the other differed by ±10% from round to round,
 * in slices of a tenth of a second by ±4%, and loaded at the same time by
 * ±2%, busy neighbour or not (bench/compare-noise.js).
 *
 * First both warm up, at the same time, in short loads, until each one's
 * rate has settled (two loads in a row within SETTLED of each other) or the
 * warm-up has lasted as long as the load that counts; then the load that
 * counts. Each step starts when both versions are ready for it. Pure: the
 * loads run elsewhere.
 *
 * @typedef {'before' | 'after'} Side
 * @typedef {import('../../load/options.js').LoadOptions} LoadOptions
 * @typedef {import('../../load/summary.js').LoadResult} LoadResult
 *
 * @typedef {object} RoundPlan
 * @property {LoadOptions} load the load that counts
 * @property {LoadOptions} warmUp one warm-up load
 * @property {number} warmUpLoads at most, per version
 */

/**
 * Which side goes first in a round: before, then after in rounds 1, 3, 5, …;
 * after, then before in rounds 2, 4, …. The side that goes first starts its
 * load first, by a moment, and its app was started first.
 * @param {number} index the round's, from 0
 * @returns {Side[]}
 */
export function roundOrder (index) {
  return index % 2 === 0 ? ['before', 'after'] : ['after', 'before']
}

/** Two warm-up loads in a row whose rates are within this of each other: the version is warm. */
export const SETTLED = 0.1
/** Fewest warm-up loads per version. */
export const MIN_WARM_UP_LOADS = 2
/** The longest warm-up load, in seconds. */
export const WARM_UP_LOAD_S = 0.25

/**
 * The loads of a round: the user's, and warm-ups of a quarter of a second
 * (of a tenth of its requests, for a load of a number of requests) for at
 * most as long as it.
 * @param {LoadOptions} load
 * @returns {RoundPlan}
 */
export function roundPlan (load) {
  if (load.duration === undefined || !Number.isFinite(load.duration)) {
    const amount = Math.max(1, Math.ceil((load.amount ?? 1) / 10))
    return { load, warmUp: { ...load, amount }, warmUpLoads: 10 }
  }
  const duration = Math.min(WARM_UP_LOAD_S, load.duration)
  return { load, warmUp: { ...load, duration }, warmUpLoads: Math.max(MIN_WARM_UP_LOADS, Math.round(load.duration / duration)) }
}

export class PairRound {
  /**
   * @param {Side[]} order which side goes first
   * @param {RoundPlan} plan
   */
  constructor (order, plan) {
    this.order = order
    this.plan = plan
    /** @type {'warm-up' | 'counted' | 'over'} what the step in progress (or the next) is */
    this.step = 'warm-up'
    /** @type {Set<Side>} the sides ready for the next step */
    this.ready = new Set()
    /** @type {Set<Side>} the sides whose load of this step runs */
    this.running = new Set()
    this.closed = false
    /** @type {Record<Side, number[]>} each warm-up load's rate */
    this.warmUp = { before: [], after: [] }
    /** @type {Record<Side, { load: LoadResult | null, cpuMs: number | null }>} the load that counts */
    this.counted = { before: { load: null, cpuMs: null }, after: { load: null, cpuMs: null } }
    /** @type {Map<Side, (load: LoadOptions | null) => void>} */
    this.waiting = new Map()
    /** @type {Record<Side, 'warm-up' | 'counted' | null>} the step of each side's last load, begun or done */
    this.lastStep = { before: null, after: null }
  }

  /**
   * Resolves when both sides are ready for the next step, with the load
   * `side` runs in it; null once the round is over (or closed).
   * @param {Side} side
   * @returns {Promise<LoadOptions | null>}
   */
  turn (side) {
    if (this.closed || this.step === 'over') return Promise.resolve(null)
    return new Promise((resolve) => {
      this.waiting.set(side, resolve)
      this.ready.add(side)
      if (this.ready.size === 2) this.go()
    })
  }

  /**
   * `side`'s load of the step in progress is over.
   * @param {Side} side
   * @param {LoadResult} load what it measured
   * @param {number | null} cpuMs the CPU time the app used during it, where the system says
   */
  done (side, load, cpuMs) {
    if (!this.running.delete(side)) return
    if (this.step === 'counted') this.counted[side] = { load, cpuMs }
    else this.warmUp[side].push(load.duration > 0 ? load.requests.completed / load.duration : 0)
    if (this.running.size > 0) return
    this.step = this.step === 'counted' ? 'over' : this.warm() ? 'counted' : 'warm-up'
    // The round is over: a side that waits for the next step (it finished first) goes, and both apps stop together.
    if (this.step === 'over') this.close()
  }

  /** A side can go no further: the other is released. */
  close () {
    this.closed = true
    for (const resolve of this.waiting.values()) resolve(null)
    this.waiting.clear()
  }

  /** @private Both are ready: the step starts, the first side a moment before the other. */
  go () {
    const load = this.step === 'counted' ? this.plan.load : this.plan.warmUp
    this.ready.clear()
    for (const side of this.order) {
      this.running.add(side)
      this.lastStep[side] = this.step === 'counted' ? 'counted' : 'warm-up'
      this.waiting.get(side)?.(load)
      this.waiting.delete(side)
    }
  }

  /**
   * @private Both versions warm: each one's rate settled at some point (and it stays warm while the other warms
   * up), or the warm-up is as long as it may be.
   */
  warm () {
    return this.order.every((side) => {
      const rates = this.warmUp[side]
      if (rates.length >= this.plan.warmUpLoads) return true
      return rates.some((b, i) => i + 1 >= MIN_WARM_UP_LOADS && rates[i - 1] > 0 && Math.abs(b / rates[i - 1] - 1) <= SETTLED)
    })
  }
}
