import { comparisonTable, verdictLines } from '../../report/comparison-table.js'

/**
 * dyno compare's terminal report: a table shaped like micro --against's,
 * a line per verdict, and what the comparison of two separate runs can and
 * cannot tell.
 * @param {import('./results.js').CompareResult} result
 * @param {{ style: import('../../report/style.js').Style, names: [string, string] }} options
 */
export function renderComparison (result, { style, names }) {
  const lines = [`a: ${names[0]}${describeSide(result.a)}`, `b: ${names[1]}${describeSide(result.b)}`]
  if (result.comparisons.length > 0) {
    lines.push(comparisonTable(result.comparisons, { labels: ['a', 'b'], unit: result.unit, first: result.kind === 'micro' ? 'Case' : 'Stat', style }))
    lines.push(...verdictLines(result.comparisons, 'b', style))
  }
  for (const m of result.missing) lines.push(style.yellow(`${m.name}: ${m.why}; not compared`))
  const nodes = new Set([...result.a.node, ...result.b.node])
  if (nodes.size > 1) {
    lines.push(style.yellow(`the runs ran on Node ${[...nodes].join(' and ')}: the Node version differs as well as your change`))
  }
  const schemas = new Set([...result.a.schemaVersions, ...result.b.schemaVersions])
  if (result.kind === 'micro' && schemas.size > 1) {
    lines.push(style.yellow(`a and b were written by different versions of dyno micro (schema ${[...schemas].join(' and ')}), which compute each process's figure differently: measure both again to compare finely`))
  }
  if (result.kind === 'micro') {
    lines.push(style.dim('Each run is one measurement: between runs taken at different times this machine drifts, and the interval allows for that drift as measured here.'))
    if (result.comparisons.some((c) => c.verdict === 'indistinguishable')) {
      lines.push(style.dim('To tell a smaller change apart, measure both versions side by side in one run: dyno micro --against <git-ref> <file>.'))
    }
  } else {
    lines.push(style.dim('Per-second rates of one run each: repeat both runs before trusting a small difference.'))
  }
  return lines.join('\n') + '\n'
}

/** @param {import('./results.js').CompareResult['a']} side */
function describeSide (side) {
  const parts = [side.runs > 1 ? `${side.runs} runs` : '', side.node.length ? `Node ${side.node.join(', ')}` : '', side.startedAt ?? ''].filter(Boolean)
  return parts.length ? ` (${parts.join(', ')})` : ''
}
