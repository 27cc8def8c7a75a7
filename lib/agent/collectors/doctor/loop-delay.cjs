'use strict'
/**
 * Event-loop delay, measured by the collector's own timer: each probe notes
 * how late it ran, beyond its period, and an interval's probes are summed up
 * exactly.
 *
 * Not perf_hooks.monitorEventLoopDelay: its histogram covers nanoseconds to
 * hours, and resetting it and reading two percentiles walk tens of thousands
 * of buckets each sample interval. A hundred times a second, next to a
 * saturated server, that took about a percent of the core (a perf profile of
 * the hello-world benchmark) and the app's cache with it.
 */
/** Beyond this many probes in one interval, only the longest delay is kept. */
const MAX_PROBES = 1024

class LoopDelay {
  /**
   * @param {number} periodMs how often probe() is called when the loop turns freely
   * @param {number} t when the timer that calls probe() was started (ms)
   */
  constructor (periodMs, t) {
    this.periodMs = periodMs
    this.last = t
    this.lates = new Float64Array(MAX_PROBES)
    this.n = 0
    this.max = 0
  }

  /** @param {number} t now, in the clock of the constructor's `t` */
  probe (t) {
    const late = Math.max(0, t - this.last - this.periodMs)
    this.last = t
    if (this.n < MAX_PROBES) this.lates[this.n] = late
    this.n++
    if (late > this.max) this.max = late
  }

  /**
   * Writes the delays since the last take into `values` from `at`: min,
   * p50, p99, max (ms) and the probes; all 0 when no probe ran.
   * @param {Float64Array} values
   * @param {number} at
   */
  takeInto (values, at) {
    const kept = Math.min(this.n, MAX_PROBES)
    if (kept <= 1) {
      // One probe an interval is the default: nothing to sort.
      const late = kept === 1 ? this.lates[0] : 0
      values[at] = values[at + 1] = values[at + 2] = late
    } else {
      const sorted = this.lates.subarray(0, kept).sort()
      values[at] = sorted[0]
      values[at + 1] = sorted[rankIndex(50, kept)]
      values[at + 2] = sorted[rankIndex(99, kept)]
    }
    values[at + 3] = this.max
    values[at + 4] = this.n
    this.n = 0
    this.max = 0
  }
}

/** The index of the p-th percentile among `count` sorted values (nearest rank). @param {number} p @param {number} count */
function rankIndex (p, count) {
  return Math.max(0, Math.min(count - 1, Math.ceil((p / 100) * count) - 1))
}

/**
 * How many probes make one sample interval, and the period between them:
 * one every 10 ms at most. Each probe wakes an idle app (a wake-up of an
 * idle process costs ~0.1 ms of CPU on a virtual machine), and the default
 * interval, 10 ms, is probed once, as Clinic.js doctor does; a longer
 * interval is probed every 10 ms or so, so that its delay is not one figure.
 * @param {number} intervalMs
 */
function probePlan (intervalMs) {
  const perSample = Math.max(1, Math.ceil(intervalMs / 10))
  return { perSample, periodMs: intervalMs / perSample }
}

module.exports = { LoopDelay, probePlan }
