import { prepareRequests } from './request.js'

/**
 * The engine configuration for one of `parts` engines (worker threads): each
 * gets its share of connections, requests and rate.
 * @param {import('./options.js').ResolvedOptions} options
 * @param {import('./request.js').RequestSpec[]} requests
 * @param {number} index
 * @param {number} parts
 * @returns {import('./engine.js').EngineConfig}
 */
export function engineConfig (options, requests, index, parts) {
  const share = (/** @type {number} */ total) => Number.isFinite(total)
    ? Math.floor(total / parts) + (index < total % parts ? 1 : 0)
    : total
  return {
    target: options.target,
    requests: prepareRequests(requests, {
      method: options.method,
      path: options.url.pathname + options.url.search,
      headers: options.headers,
      body: options.body,
      host: options.target.host
    }),
    connections: share(options.connections),
    pipelining: options.pipelining,
    durationMs: options.durationMs,
    amount: share(options.amount),
    timeoutMs: options.timeoutMs,
    rate: options.rate / parts,
    maxConnections: Math.max(1, share(options.maxConnections))
  }
}
