import { count, decimal, pValue, times } from './format.js'
import { table } from './table.js'

/**
 * @param {ReturnType<typeof import('../compare/results.js').compareResults>} result
 * @param {{ style: import('./style.js').Style, names: [string, string] }} options
 */
export function renderComparison (result, { style, names }) {
  const number = (/** @type {number | null} */ n) => (n === null ? '' : n >= 100 ? count(n) : decimal(n, 2))
  const rows = [[result.kind === 'micro' ? 'Case' : 'Stat', `a ${result.unit}`, `b ${result.unit}`, 'b / a (95% CI)', 'Significant', 'Verdict']]
  for (const r of result.rows) {
    const c = r.comparison
    const verdict = r.verdict === 'faster'
      ? style.green('b is faster')
      : r.verdict === 'slower' ? style.red('b is slower') : r.verdict === 'indistinguishable' ? 'indistinguishable' : style.yellow(r.verdict)
    rows.push([
      r.name,
      number(r.a),
      number(r.b),
      c ? `${times(c.ratio)} (${times(c.low)}–${times(c.high)})` : '',
      c ? `${c.significant ? 'yes' : 'no'}, ${pValue(c.p)}` : '',
      verdict
    ])
  }
  const lines = [
    `a: ${names[0]}${describeRun(result.a)}`,
    `b: ${names[1]}${describeRun(result.b)}`,
    table(rows, style)
  ]
  if (result.a.node && result.b.node && result.a.node !== result.b.node) {
    lines.push(style.yellow(`a ran on Node ${result.a.node} and b on ${result.b.node}: the Node version differs as well as your change`))
  }
  if (result.kind === 'micro' && result.a.schemaVersion !== result.b.schemaVersion) {
    lines.push(style.yellow(`a and b were written by different versions of dyno micro (schema ${result.a.schemaVersion} and ${result.b.schemaVersion}), which compute each process's figure differently: measure both again to compare finely`))
  }
  if (result.kind === 'load') {
    lines.push(style.dim('Per-second rates of one run each: repeat both runs before trusting a small difference.'))
  }
  return lines.join('\n') + '\n'
}

/** @param {{ node: string | null, startedAt: string | null }} run */
function describeRun (run) {
  const parts = [run.node ? `Node ${run.node}` : '', run.startedAt ?? ''].filter(Boolean)
  return parts.length ? ` (${parts.join(', ')})` : ''
}
