/**
 * One warm round of dyno compare --load: both versions run side by side and
 * are loaded at the same time, each by connections of its own, so that
 * whatever the machine does during the round (another job taking a core,
 * the host taking the CPU away from a virtual machine for a few
 * milliseconds) falls on both alike. On a shared 2-core machine a round's
 * ratio spread by ±10% with the two loaded one after the other, and by ±2%
 * loaded at the same time, busy neighbour or not (bench/compare-noise.js).
 *
 * Sharing the CPU is fair to two versions that cost about the same; one that
 * costs many times less wakes up so often that it slows the other down (the
 * CPU-burning example's fix made it 1300x faster sharing the CPU, 900x
 * alone). So when the first round's warm-up ends with the two rates further
 * apart than SHARED_AT_MOST, the versions are loaded one at a time instead
 * ('alone'), and the run keeps that for all its rounds: such a change is
 * found in a few rounds anyway.
 *
 * First both warm up, in short loads, until each one's rate has settled
 * (two loads in a row within SETTLED of each other) or the warm-up has
 * lasted as long as the load that counts; then the load that counts. A step
 * starts when every version in it is ready. Pure: the loads run elsewhere.
 *
 * @typedef {'before' | 'after'} Side
 * @typedef {'together' | 'alone'} Mode
 * @typedef {import('../../load/options.js').LoadOptions} LoadOptions
 * @typedef {import('../../load/summary.js').LoadResult} LoadResult
 *
 * @typedef {object} RoundPlan
 * @property {LoadOptions} load the load that counts
 * @property {LoadOptions} warmUp one warm-up load
 * @property {number} warmUpLoads at most, per version
 * @property {boolean} timed the load lasts a duration; one of a number of requests cannot share the CPU fairly
 *   (the cheaper version finishes first, and the other then has the CPU alone), so its versions go one at a time
 *
 * @typedef {{ sides: Side[], counts: boolean }} Step
 */

/**
 * Which side goes first in a round: before, then after in rounds 1, 3, 5, …;
 * after, then before in rounds 2, 4, …. The side that goes first has its
 * app started first, and its load started first (by a moment, when they
 * share the CPU).
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
/** Two versions whose rates are further apart than this are loaded one at a time. */
export const SHARED_AT_MOST = 1.5

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
    return { load, warmUp: { ...load, amount }, warmUpLoads: 10, timed: false }
  }
  const duration = Math.min(WARM_UP_LOAD_S, load.duration)
  return { load, warmUp: { ...load, duration }, warmUpLoads: Math.max(MIN_WARM_UP_LOADS, Math.round(load.duration / duration)), timed: true }
}

export class PairRound {
  /**
   * @param {Side[]} order which side goes first
   * @param {RoundPlan} plan
   * @param {Mode | null} mode how the two are loaded; null: at the same time unless they are too far apart once
   *   warm
   */
  constructor (order, plan, mode) {
    this.order = order
    this.plan = plan
    /** @type {Mode | null} */
    this.mode = mode ?? (plan.timed ? null : 'alone')
    /** @type {Step[]} the steps to come, the next first */
    this.queue = this.steps(false)
    /** @type {Step | null} */
    this.current = null
    /** @type {Set<Side>} whose load of the current step runs */
    this.running = new Set()
    this.closed = false
    /** @type {Record<Side, number[]>} each warm-up load's rate */
    this.warmUp = { before: [], after: [] }
    /** @type {Record<Side, { load: LoadResult | null, cpuMs: number | null }>} the load that counts */
    this.counted = { before: { load: null, cpuMs: null }, after: { load: null, cpuMs: null } }
    /** @type {Map<Side, (load: LoadOptions | null) => void>} the sides that wait for their next step */
    this.waiting = new Map()
    /** @type {Record<Side, 'warm-up' | 'counted' | null>} the kind of each side's last load, begun or done */
    this.lastStep = { before: null, after: null }
  }

  /**
   * Resolves when `side`'s next step starts, with the load it runs; null
   * once the round is over (or closed).
   * @param {Side} side
   * @returns {Promise<LoadOptions | null>}
   */
  turn (side) {
    if (this.closed) return Promise.resolve(null)
    return new Promise((resolve) => {
      this.waiting.set(side, resolve)
      this.advance()
    })
  }

  /**
   * `side`'s load of the current step is over.
   * @param {Side} side
   * @param {LoadResult} load what it measured
   * @param {number | null} cpuMs the CPU time the app used during it, where the system says
   */
  done (side, load, cpuMs) {
    if (!this.current || !this.running.delete(side)) return
    if (this.current.counts) this.counted[side] = { load, cpuMs }
    else this.warmUp[side].push(load.duration > 0 ? load.requests.completed / load.duration : 0)
    if (this.running.size > 0) return
    const counted = this.current.counts
    this.current = null
    if (this.queue.length === 0) {
      // The round is over: a side that waits (it finished first) goes, and both apps stop together.
      if (counted) return this.close()
      const warm = this.warm()
      if (warm && this.mode === null) this.mode = this.farApart() ? 'alone' : 'together'
      this.queue = this.steps(warm)
    }
    this.advance()
  }

  /** A side can go no further: the other is released. */
  close () {
    this.closed = true
    for (const resolve of this.waiting.values()) resolve(null)
    this.waiting.clear()
  }

  /** @private The next step starts once no load runs and every side in it waits. */
  advance () {
    const next = this.queue[0]
    if (this.closed || this.current || !next || !next.sides.every((side) => this.waiting.has(side))) return
    this.queue.shift()
    this.current = next
    const load = next.counts ? this.plan.load : this.plan.warmUp
    for (const side of next.sides) {
      this.running.add(side)
      this.lastStep[side] = next.counts ? 'counted' : 'warm-up'
      const resolve = /** @type {(load: LoadOptions | null) => void} */ (this.waiting.get(side))
      this.waiting.delete(side)
      resolve(load)
    }
  }

  /**
   * @private The steps of one warm-up (or of the load that counts): both at once, or one after the other.
   * @param {boolean} counts
   * @returns {Step[]}
   */
  steps (counts) {
    return this.mode === 'alone' ? this.order.map((side) => ({ sides: [side], counts })) : [{ sides: this.order, counts }]
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

  /** @private The warm-up's last rates are too far apart to share the CPU fairly (or a side answered nothing). */
  farApart () {
    const [a, b] = this.order.map((side) => this.warmUp[side].at(-1) ?? 0)
    return !(a > 0 && b > 0) || Math.max(a / b, b / a) > SHARED_AT_MOST
  }
}
