import { requestsDue } from './open-model.js'
import { prepareRequests } from './request.js'
import { displayPath } from './requests-file.js'
import { shareOf, stripe } from './segment.js'

/**
 * The engine configuration for one of `parts` engines (worker threads) of
 * this generator's segment: each gets its stripe of the whole load's
 * connections, requests and rate (see segment.js).
 * @param {import('./options.js').ResolvedOptions} options
 * @param {import('./request.js').RequestSpec[]} requests
 * @param {number} index
 * @param {number} parts
 * @returns {import('./engine.js').EngineConfig}
 */
export function engineConfig (options, requests, index, parts) {
  const at = stripe([options.segment, { index, count: parts }])
  const share = (/** @type {number} */ total) => shareOf(total, at)
  return {
    target: options.target,
    requests: prepareRequests(requests, {
      method: options.method,
      path: options.url.pathname + options.url.search,
      headers: options.headers,
      body: options.body,
      host: options.target.host,
      source: options.requestsFile === undefined ? undefined : displayPath(options.requestsFile)
    }),
    connections: share(options.connections),
    pipelining: options.target.http2 ? options.streams : options.pipelining,
    durationMs: options.durationMs,
    amount: share(options.amount),
    timeoutMs: options.timeoutMs,
    rate: options.rate / at.stride,
    // The whole's requests k = phase, phase + stride, …: the first is due phase intervals after the start.
    phaseMs: options.rate > 0 ? at.phase * 1000 / options.rate : 0,
    // Shared out of the total, so that the parts add up to rate × duration.
    due: options.rate > 0 ? share(Math.min(options.amount, requestsDue(options.rate, options.durationMs))) : undefined,
    maxConnections: Math.max(1, share(options.maxConnections))
  }
}
