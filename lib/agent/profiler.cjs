'use strict'
/**
 * The V8 CPU profiler through an in-process inspector session (no port is
 * opened). In-process sessions answer synchronously, which lets the last
 * chunk be written from an 'exit' handler.
 */
const inspector = require('node:inspector')

class Profiler {
  /** @param {number} samplingIntervalUs */
  constructor (samplingIntervalUs) {
    this.session = new inspector.Session()
    this.session.connect()
    this.post('Profiler.enable')
    this.post('Profiler.setSamplingInterval', { interval: samplingIntervalUs })
    this.running = false
  }

  /**
   * @param {string} method
   * @param {object} [params]
   * @returns {any}
   */
  post (method, params) {
    /** @type {Error | null} */
    let error = null
    /** @type {any} */
    let result = null
    this.session.post(method, params, (err, res) => {
      error = err
      result = res
    })
    if (error) throw error
    return result
  }

  start () {
    this.post('Profiler.start')
    this.running = true
  }

  /** Stops and returns the profile collected since start. */
  stop () {
    this.running = false
    return /** @type {{ profile: { nodes: { callFrame: import('./tiers.cjs').CallFrame, hitCount?: number }[] } }} */ (this.post('Profiler.stop')).profile
  }

  /**
   * Where each function of the given scripts starts and ends (character
   * offsets), from V8's best-effort coverage, which costs nothing until asked.
   * Older V8 lines fold an inlined function's samples into its caller's
   * frame; these ranges let dyno give them back to the function.
   * @param {Set<string>} urls
   * @returns {{ url: string, functions: [string, number, number][] }[]}
   */
  functionRanges (urls) {
    const { result } = this.post('Profiler.getBestEffortCoverage')
    return result
      .filter((/** @type {{ url: string }} */ script) => urls.has(script.url) && !script.url.startsWith('node:'))
      .map((/** @type {{ url: string, functions: { functionName: string, ranges: { startOffset: number, endOffset: number }[] }[] }} */ script) => ({
        url: script.url,
        functions: script.functions
          .filter((fn) => fn.ranges.length > 0)
          .map((fn) => /** @type {[string, number, number]} */ ([fn.functionName, fn.ranges[0].startOffset, fn.ranges[0].endOffset]))
      }))
  }

  /** Stops, hands back the profile so far, and starts a new one at once. */
  rotate () {
    const profile = this.stop()
    this.start()
    return profile
  }
}

module.exports = { Profiler }
