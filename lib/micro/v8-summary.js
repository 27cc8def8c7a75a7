import { fileURLToPath } from 'node:url'

/**
 * What V8 did with one case, first per process, then across its processes.
 *
 * @typedef {import('../v8/optimization-status.js').FunctionStatus} FunctionStatus
 * @typedef {import('../v8/trace.js').Deopt} Deopt
 *
 * @typedef {object} ProcessV8
 * @property {FunctionStatus} case the case function, after the run
 * @property {(FunctionStatus & { name: string, inlined: boolean })[]} inspected the functions named in `inspect`
 * @property {Deopt[]} deopts in the user's code
 */

const DYNO_LIB = fileURLToPath(new URL('..', import.meta.url))

/**
 * Deoptimizations worth showing: in the user's files (not Node's, not dyno's
 * timing loop), and not the routine exit from a loop's code into its
 * on-stack-replacement version, which V8 also logs as a deoptimization.
 * @param {Deopt} deopt
 */
function isUsers (deopt) {
  const file = deopt.location?.file ?? ''
  const path = file.startsWith('file://') ? fileURLToPath(file) : file
  return path.startsWith('/') && !path.startsWith(DYNO_LIB) && !/on stack replacement/i.test(deopt.reason)
}

/**
 * @param {{ case: FunctionStatus, inspected: (FunctionStatus & { name: string })[] }} status read in the worker
 * @param {import('../v8/trace.js').V8Activity} activity parsed from its traces
 * @returns {ProcessV8}
 */
export function processV8 (status, activity) {
  return {
    case: status.case,
    inspected: status.inspected.map((s) => ({ ...s, inlined: activity.inlinings.some((i) => i.callee === s.name) })),
    deopts: activity.deopts.filter(isUsers)
  }
}

/**
 * @template T
 * @param {T[]} values
 * @returns {{ value: T, count: number, of: number }} the most common value
 */
function mostCommon (values) {
  /** @type {Map<T, number>} */
  const counts = new Map()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  let best = { value: values[0], count: 0, of: values.length }
  for (const [value, count] of counts) if (count > best.count) best = { value, count, of: values.length }
  return best
}

/**
 * @param {ProcessV8[]} processes
 */
export function summarizeV8 (processes) {
  const names = [...new Set(processes.flatMap((p) => p.inspected.map((s) => s.name)))]
  /** @type {Map<string, { reason: string, name: string, location: import('../v8/trace.js').SourceLocation | null, total: number, processes: number }>} */
  const reasons = new Map()
  for (const p of processes) {
    const seen = new Set()
    for (const d of p.deopts) {
      const where = d.location ? `${d.location.file}:${d.location.line}:${d.location.column}` : ''
      const key = `${d.reason}\n${where}`
      const entry = reasons.get(key) ?? { reason: d.reason, name: d.name, location: d.location, total: 0, processes: 0 }
      entry.total++
      if (!seen.has(key)) entry.processes++
      seen.add(key)
      reasons.set(key, entry)
    }
  }
  const deoptCounts = processes.map((p) => p.deopts.length).sort((a, b) => a - b)
  return {
    case: mostCommon(processes.map((p) => p.case.tier)),
    inspected: names.map((name) => {
      const statuses = processes.map((p) => p.inspected.find((s) => s.name === name)).filter((s) => s !== undefined)
      return {
        name,
        tier: mostCommon(statuses.map((s) => s.tier)),
        inlined: statuses.filter((s) => s.inlined).length,
        of: statuses.length
      }
    }),
    deopts: {
      perProcess: { min: deoptCounts[0] ?? 0, median: deoptCounts[Math.floor(deoptCounts.length / 2)] ?? 0, max: deoptCounts[deoptCounts.length - 1] ?? 0 },
      reasons: [...reasons.values()].sort((a, b) => b.total - a.total)
    }
  }
}
