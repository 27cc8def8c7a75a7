/**
 * What the header of every HTML report says of its run, from its meta.json:
 * when it started, on which Node, how the app ended, and the load's figures.
 * The viewer renders them (viewer/shared/header.js); each report adds its title
 * and duration.
 * @param {import('../run-folder.js').RunMeta} meta
 */
export function runFacts (meta) {
  return {
    startedAt: meta.startedAt,
    node: meta.node ?? null,
    v8: meta.v8 ?? null,
    exit: meta.end ? { how: meta.end.how, code: meta.end.code ?? null, signal: meta.end.signal ?? null } : null,
    load: meta.load ? loadFigures(meta.load) : null
  }
}

/**
 * The load's figures a report's header shows.
 * @param {import('../load/summary.js').LoadResult} result
 */
export function loadFigures (result) {
  return {
    average: result.requests.average,
    p50: result.latency.percentiles['50'],
    p99: result.latency.percentiles['99'],
    errors: result.errors.total,
    non2xx: result.non2xx,
    sent: result.requests.sent
  }
}
