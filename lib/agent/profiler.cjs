'use strict'
/**
 * The V8 CPU profiler of the app's main thread, driven from the agent's
 * worker thread through its inspector session, so that the worker can stop
 * the profiler and take its profile even while the app's event loop is
 * blocked: the very moment a profile matters most.
 */

class Profiler {
  /** @param {import('./inspector-session.cjs').InspectorSession} session */
  constructor (session) {
    this.session = session
  }

  /**
   * @param {string} method
   * @param {object} [params]
   * @returns {Promise<any>}
   */
  post (method, params) {
    return this.session.post(method, params)
  }

  /** @param {number} samplingIntervalUs */
  async start (samplingIntervalUs) {
    await this.post('Profiler.enable')
    // NODE_V8_COVERAGE (c8, nyc, node --test coverage) makes V8 count every
    // block: the app runs slower, and Node 20's V8 credits much of a hot
    // function's samples to its caller. Profile the code as it runs without
    // it; the process still writes its coverage, per function instead of per block.
    if (process.env.NODE_V8_COVERAGE) await this.post('Profiler.stopPreciseCoverage')
    await this.post('Profiler.setSamplingInterval', { interval: samplingIntervalUs })
    await this.post('Profiler.start')
  }

  /**
   * Stops and returns the profile collected since start.
   * @returns {Promise<{ nodes: { callFrame: import('./tiers.cjs').CallFrame, hitCount?: number }[] }>}
   */
  async stop () {
    return (await this.post('Profiler.stop')).profile
  }

  /** Stops, hands back the profile so far, and starts a new one at once. */
  async rotate () {
    const profile = await this.stop()
    await this.post('Profiler.start')
    return profile
  }

  /**
   * Where each function of the given scripts starts and ends (character
   * offsets), from V8's best-effort coverage, which costs nothing until asked.
   * Some V8 lines fold an inlined function's samples into its caller's frame;
   * these ranges let dyno give them back to the function.
   * @param {Set<string>} urls
   * @returns {Promise<{ url: string, functions: [string, number, number][] }[]>}
   */
  async functionRanges (urls) {
    const { result } = await this.post('Profiler.getBestEffortCoverage')
    return functionExtents(result, urls)
  }
}

/**
 * The extents of the functions of the given scripts, from a coverage result.
 * @param {{ url: string, functions: { functionName: string, ranges: { startOffset: number, endOffset: number }[] }[] }[]} coverage
 * @param {Set<string>} urls
 * @returns {{ url: string, functions: [string, number, number][] }[]}
 */
function functionExtents (coverage, urls) {
  return coverage
    .filter((script) => urls.has(script.url) && !script.url.startsWith('node:'))
    .map((script) => ({
      url: script.url,
      functions: script.functions
        .filter((fn) => fn.ranges.length > 0)
        .map((fn) => /** @type {[string, number, number]} */ ([fn.functionName, fn.ranges[0].startOffset, fn.ranges[0].endOffset]))
    }))
}

module.exports = { Profiler, functionExtents }
