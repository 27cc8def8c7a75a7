import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rateText, ratioText } from '../../report/comparison-table.js'
import { count, decimal, nanoseconds, pValue } from '../../format.js'
import { table } from '../../report/table.js'

/**
 * dyno micro's terminal report: benchmark.js's lines first, so its users
 * recognise them, then a table against the fastest case, the verdict, and
 * what V8 did with each case.
 *
 * @typedef {import('../../report/style.js').Style} Style
 * @typedef {import('../../micro/runner.js').FileReport} FileReport
 * @typedef {import('../../micro/analyze.js').GroupReport} GroupReport
 * @typedef {import('../../micro/analyze.js').CaseReport} CaseReport
 */

/**
 * The round under way, over the last one, on a terminal.
 * @param {import('../../micro/runner.js').Progress} p @param {string} cwd
 */
export function roundLine (p, cwd) {
  return `\r\x1b[2K${relative(cwd, p.file)}: round ${p.round + 1}/${p.rounds}${p.group ? ` · ${p.group}` : ''}`
}

/** @param {import('./types.js').Failure} f */
export function failureLine (f) {
  if (f.case === null) return `${f.file}: could not run the file ${failureText(f)}`
  return `${f.file}: case "${f.case}" failed ${failureText(f)}`
}

/**
 * `(stage): message [code]`: what failed, in the words of its kind, then its code.
 * @param {import('../../micro/analyze.js').MicroFailure} failure
 */
export function failureText ({ stage, code, message }) {
  return `(${stage}): ${message} [${code}]`
}

/**
 * @param {FileReport} report
 * @param {{ style: Style, cwd: string }} options
 */
export function renderMicroFile (report, { style, cwd }) {
  const out = [style.bold(relative(cwd, report.file) || report.file)]
  if (report.error) {
    out.push(style.red(`  could not run the file ${failureText(report.error)}`), '')
    return out.join('\n')
  }
  for (const group of report.groups) out.push(renderGroup(group, style, cwd))
  return out.join('\n')
}

/**
 * @param {GroupReport} group @param {Style} style @param {string} cwd
 */
function renderGroup (group, style, cwd) {
  const out = []
  if (group.name) out.push('', style.cyan(group.name))
  for (const c of group.cases) out.push(...caseLines(c, style))
  const measured = group.cases.filter((c) => c.summary)
  if (measured.length > 1) out.push('', comparisonTable(group, style))
  if (group.fastest && measured.length > 1) out.push(fastestLine(group, style))
  const insight = group.cases.filter((c) => c.v8).map((c) => v8Lines(c, style, cwd))
  if (insight.length > 0) out.push('', style.dim('V8, after each process\'s run:'), ...insight.flat())
  out.push('')
  return out.join('\n')
}

/** `name x 11,014 ops/sec ±1.12% (874 runs sampled in 10 processes)` @param {CaseReport} c @param {Style} style */
function caseLines (c, style) {
  if (!c.summary) {
    return [style.red(`${c.name} failed${c.error ? ` ${failureText(c.error)}` : ''}`)]
  }
  const s = c.summary
  const rme = Number.isNaN(s.rme) ? '' : ` ±${decimal(s.rme, 2)}%`
  const lines = [`${c.name} x ${rateText(s.opsPerSecond)} ops/sec${rme} (${count(s.samples)} runs sampled in ${c.processes.length} process${c.processes.length === 1 ? '' : 'es'})`]
  if (c.error) lines.push(style.red(`  then failed ${failureText(c.error)}`))
  if (s.optimizedAway && s.baselineNs !== null) {
    lines.push(style.yellow(`  probably optimized away: no slower than an empty function (${nanoseconds(s.baselineNs)} per call); return or keep() the result`))
  }
  return lines
}

/** @param {GroupReport} group @param {Style} style */
function comparisonTable (group, style) {
  const rows = [['Case', 'ops/sec', 'vs fastest (95% CI)', 'Significant', 'p50', 'p99', 'min', 'max']]
  const ordered = group.cases.filter((c) => c.summary).sort((a, b) => /** @type {any} */ (b.summary).opsPerSecond - /** @type {any} */ (a.summary).opsPerSecond)
  for (const c of ordered) {
    const s = /** @type {import('../../micro/analyze.js').CaseSummary} */ (c.summary)
    const vs = c.againstFastest
    rows.push([
      c.name,
      rateText(s.opsPerSecond),
      vs ? ratioText(vs, 'slower') : 'fastest',
      vs ? `${vs.significant ? 'yes' : 'no'}, ${pValue(vs.p)}` : '',
      nanoseconds(s.nsPerOp.p50),
      nanoseconds(s.nsPerOp.p99),
      nanoseconds(s.nsPerOp.min),
      nanoseconds(s.nsPerOp.max)
    ])
  }
  return table(rows, style) + '\n' + style.dim('Time per call (p50, p99, min, max) is over samples, each the mean of a batch of calls.')
}

/** @param {GroupReport} group @param {Style} style */
function fastestLine (group, style) {
  const fastest = /** @type {NonNullable<GroupReport['fastest']>} */ (group.fastest)
  if (fastest.separated) return `Fastest is ${style.green(fastest.names[0])}`
  const names = fastest.names
  const list = names.length === 2 ? names.join(' or ') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`
  const all = group.cases.filter((c) => c.summary).length === names.length
  return `Fastest is ${style.yellow(list)}: ${all ? 'the cases' : 'these'} cannot be told apart (no significant difference at 95%)`
}

/** @param {CaseReport} c @param {Style} style @param {string} cwd */
function v8Lines (c, style, cwd) {
  const v8 = /** @type {NonNullable<CaseReport['v8']>} */ (c.v8)
  const parts = [`case ${tierText(v8.case)}`]
  for (const f of v8.inspected) {
    const inlined = f.inlined === 0 ? '' : f.inlined === f.of ? ', inlined' : `, inlined in ${f.inlined} of ${f.of} processes`
    parts.push(`${f.name} ${tierText(f.tier)}${inlined}`)
  }
  const d = v8.deopts.perProcess
  parts.push(d.max === 0 ? 'no deoptimizations' : `deoptimized ${d.min === d.max ? d.min : `${d.min}-${d.max}`} time${d.max === 1 ? '' : 's'} per process`)
  const lines = [`  ${c.name}: ${parts.join(' · ')}`]
  for (const r of v8.deopts.reasons.slice(0, 5)) {
    const where = r.location ? ` at ${placeText(r.location, cwd)}` : ''
    // Only names the user gave: V8 names anonymous functions after nearby properties ("bench.inspect").
    const inFn = v8.inspected.some((f) => f.name === r.name) ? ` in ${r.name}` : ''
    lines.push(style.dim(`    ${r.reason}${where}${inFn} (${r.processes} of ${c.processes.length} processes)`))
  }
  return lines
}

/** @param {{ value: string, count: number, of: number }} tally */
function tierText (tally) {
  return tally.count === tally.of ? tally.value : `${tally.value} in ${tally.count} of ${tally.of} processes`
}

/** @param {import('../../v8/trace.js').SourceLocation} location @param {string} cwd */
function placeText (location, cwd) {
  const path = location.file.startsWith('file://') ? fileURLToPath(location.file) : location.file
  return `${relative(cwd, path)}:${location.line}:${location.column}`
}
