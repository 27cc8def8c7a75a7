import { decimal } from '../../format.js'
import { table } from '../../report/table.js'

/**
 * The generators of a merged load, a line each: when each started, what it
 * made, and whether its own CPU set the pace.
 * @param {import('./merge.js').GeneratorLine[]} generators
 * @param {import('../../report/style.js').Style} style
 */
export function renderGenerators (generators, style) {
  const rows = generators.map((g) => [
    g.name,
    g.segment,
    g.host,
    `+${decimal(g.startOffsetMs / 1000, 2)} s`,
    `${decimal(g.duration, 1)} s`,
    String(g.completed),
    decimal(g.rps, 0),
    `${decimal(g.p99, 2)} ms`,
    String(g.errors),
    `${Math.round(g.cpu * 100)}%${g.saturated ? ' (saturated)' : ''}`
  ])
  return style.bold(`${generators.length} generator${generators.length === 1 ? '' : 's'}`) + '\n' +
    table([['result', 'segment', 'host', 'started', 'ran', 'requests', 'req/s', 'p99', 'errors', 'CPU'], ...rows], style) + '\n'
}
