import { pathToFileURL } from 'node:url'
import { bytes, count, decimal, signedBytes } from '../../format.js'
import { renderAllocationSummary } from './allocation-terminal.js'
import { table } from '../../report/table.js'

/** Rows of the growth table. */
const TOP = 10

/**
 * What the terminal shows of a heap run folder, of either kind.
 * @param {import('./types.js').HeapRendered} rendered
 * @param {{ how: string } | null} end
 * @param {import('../../report/style.js').Style} style
 */
export function renderHeapRunSummary (rendered, end, style) {
  return rendered.kind === 'sampling' ? renderAllocationSummary(rendered.allocations, end, style) : renderHeapSummary(rendered, end, style)
}

/**
 * The end of a heap run on the terminal: the growth table (DevTools'
 * Comparison columns, top 10 by size delta), one line per leak with the path
 * that holds it, and how long each snapshot paused the app.
 * @param {{ analysis: import('./analyze.js').HeapAnalysis, timings: import('./types.js').SnapshotTiming[], html: string }} rendered
 * @param {{ how: string } | null} end
 * @param {import('../../report/style.js').Style} style
 */
export function renderHeapSummary (rendered, end, style) {
  const { analysis, timings } = rendered
  const out = []
  const first = analysis.snapshots[0]
  const last = /** @type {typeof first} */ (analysis.snapshots.at(-1))
  out.push(style.bold(`Heap: ${bytes(first.size)} → ${bytes(last.size)} (${signedBytes(last.size - first.size)}), ${count(first.nodes)} → ${count(last.nodes)} objects`))
  const rows = analysis.comparison.filter((r) => r.sizeDelta !== 0 || r.countDelta !== 0).slice(0, TOP)
  if (rows.length > 0) {
    out.push(table([
      ['Constructor', '# New', '# Deleted', '# Delta', 'Alloc. Size', 'Freed Size', 'Size Delta', 'Retained Δ'],
      ...rows.map((r) => [r.name.length > 40 ? r.name.slice(0, 39) + '…' : r.name, count(r.newCount), count(r.deletedCount), signed(r.countDelta), bytes(r.allocSize), bytes(r.freedSize), signedBytes(r.sizeDelta), signedBytes(r.retainedDelta)])
    ], style))
  }
  out.push('')
  if (analysis.leaks.length === 0) {
    out.push(style.green(`No leak: nothing grew by ${analysis.snapshots.length > 2 ? 'more than noise in every round' : 'more than noise'}.`))
  } else {
    out.push(style.bold(analysis.leaks.length === 1 ? 'Leak' : `Leaks (${analysis.leaks.length})`))
    for (const leak of analysis.leaks) {
      out.push(`  ${style.red(leakLine(leak))}`)
      out.push(...pathLines(leak.path).map((line) => `      ${style.dim(line)}`))
      if (leak.alsoGrowing.length > 0) out.push(`      ${style.dim('held with it: ' + leak.alsoGrowing.map((g) => `${g.name} ${signed(g.countDelta)}`).join(', '))}`)
    }
  }
  if (timings.length > 0) {
    out.push('', style.bold('Snapshots (the app is paused while V8 writes one)'))
    for (const t of timings) {
      const still = t.inFlight ? `  ${style.yellow(`${t.inFlight} requests still at work: what they hold is in it`)}` : ''
      out.push(`  ${t.label.padEnd(16)} ${decimal(t.ms, 0).padStart(6)} ms  (GC ${decimal(t.gcMs, 0)} ms)  ${bytes(t.bytes)}${still}`)
    }
  }
  if (end) out.push('', `The app ${end.how}.`)
  out.push('', `Report: ${pathToFileURL(rendered.html).href}`)
  return out.join('\n') + '\n'
}

/**
 * "`RequestContext` +12,400 objects (+9.8 MB retained) held by `bus` listeners for 'config-changed' (server.js:9)"
 * @param {import('./leaks.js').Leak} leak
 */
export function leakLine (leak) {
  const where = leak.location ? ` (${leak.location})` : ''
  return `\`${leak.constructor}\` ${signed(leak.countDelta)} objects (${signedBytes(leak.retainedDelta)} retained) held by ${leak.holder}${where}`
}

/**
 * A retainer path, one step a line, from the root to the object.
 * @param {import('./describe-path.js').PathStep[]} steps
 */
export function pathLines (steps) {
  // The roots' own steps say little; start at the first named one.
  const start = Math.max(0, steps.findIndex((s) => s.edge === 'context' || s.edge === 'property') - 1)
  return steps.slice(start).map((s) => `${stepLabel(s)} → ${s.to}${s.toName && s.to !== '(string)' ? ` ${s.toName}` : ''}${s.location ? ` (${s.location})` : ''}`)
}

/** @param {import('./describe-path.js').PathStep} s */
function stepLabel (s) {
  if (s.edge === 'element' || s.edge === 'hidden') return `[${s.name}]`
  if (s.edge === 'context') return `variable ${s.name}`
  if (s.edge === 'internal') return `(${s.name})`
  if (s.edge === 'shortcut') return '(root)'
  return `.${s.name}`
}

/** @param {number} n */
function signed (n) {
  return (n > 0 ? '+' : '') + count(n)
}
