import { microRuns } from '../../micro/saved.js'
import { compareRuns } from '../../stats/runs.js'
import { compareGroups } from '../../stats/welch.js'
import { mean } from '../../stats/describe.js'
import { COMPARISON_SCHEMA_VERSION, comparisonEntry } from '../../stats/comparison.js'

/**
 * dyno compare: two results taken at different times, measurement by
 * measurement. Pure.
 *
 * Micro results are compared case by case, run against run: a saved name
 * may hold several runs, each run's figure for a case is its geometric mean
 * over processes (what dyno micro printed), and the test allows for the
 * drift of this machine between runs (lib/stats/runs.js). How large that
 * drift is was measured: BETWEEN_RUNS. Results of schema 1 (each process's
 * figure the mean over its samples) are read too; schema 2 takes the median
 * of its slices. Load results are compared on their per-second request
 * rates, as autocannon-compare does; those seconds come from one process and
 * drift together, so the test is only as good as the two runs are
 * representative.
 *
 * @typedef {'micro' | 'load'} ResultKind
 * @typedef {{ kind: ResultKind, doc: any }} Result
 * @typedef {{ name: string, why: 'only in a' | 'only in b' | 'failed' }} Missing
 */

/**
 * Between two runs of the same code, a case's mean moved on this machine
 * as much as this many processes of one run vary (in variance): measured
 * with `node bench/verify.js saved`, which calls A/A pairs different in at
 * most 1 in 20 with it.
 */
export const BETWEEN_RUNS = 3

/**
 * @param {any} doc parsed JSON
 * @returns {ResultKind | null}
 */
export function resultKind (doc) {
  if (microRuns(doc)) return 'micro'
  if (doc && typeof doc === 'object' && typeof doc.schemaVersion === 'number' && Array.isArray(doc.requests?.perSecond?.samples)) return 'load'
  return null
}

/**
 * @param {Result} a @param {Result} b
 * @param {{ betweenRuns?: number }} [options]
 */
export function compareResults (a, b, options = {}) {
  const compared = a.kind === 'micro' ? compareMicro(a.doc, b.doc, options.betweenRuns ?? BETWEEN_RUNS) : compareLoad(a.doc, b.doc)
  return {
    schemaVersion: COMPARISON_SCHEMA_VERSION,
    kind: a.kind,
    unit: a.kind === 'micro' ? 'ops/sec' : 'req/sec',
    a: describeResult(a),
    b: describeResult(b),
    ...compared
  }
}

/** @typedef {ReturnType<typeof compareResults>} CompareResult */

/**
 * @param {Result} result
 */
function describeResult ({ kind, doc }) {
  const runs = kind === 'micro' ? /** @type {any[]} */ (microRuns(doc)) : [doc]
  const last = runs[runs.length - 1]
  return {
    runs: runs.length,
    node: [...new Set(runs.map((r) => r.node ?? null))].filter((n) => n !== null),
    startedAt: last.startedAt ?? null,
    schemaVersions: [...new Set(runs.map((r) => r.schemaVersion))]
  }
}

/**
 * Per case, per run, its per-process ops/sec; null when the case failed in a run.
 * @param {any} doc
 * @returns {Map<string, (number[] | null)[]>}
 */
function microCases (doc) {
  /** @type {Map<string, (number[] | null)[]>} */
  const cases = new Map()
  for (const run of /** @type {any[]} */ (microRuns(doc))) {
    for (const file of run.files) {
      for (const group of file.groups ?? []) {
        for (const c of group.cases) {
          const name = group.name ? `${group.name} › ${c.name}` : c.name
          cases.set(name, [...(cases.get(name) ?? []), c.summary ? c.summary.processOpsPerSecond : null])
        }
      }
    }
  }
  return cases
}

/**
 * @param {any} docA @param {any} docB @param {number} betweenRuns
 */
function compareMicro (docA, docB, betweenRuns) {
  const a = microCases(docA)
  const b = microCases(docB)
  const comparisons = []
  /** @type {Missing[]} */
  const missing = []
  for (const name of new Set([...a.keys(), ...b.keys()])) {
    const runsA = a.get(name)
    const runsB = b.get(name)
    if (!runsA || !runsB) {
      missing.push({ name, why: runsA ? 'only in a' : 'only in b' })
      continue
    }
    const measuredA = runsA.filter((r) => r !== null && r.length > 0)
    const measuredB = runsB.filter((r) => r !== null && r.length > 0)
    if (measuredA.length === 0 || measuredB.length === 0) {
      missing.push({ name, why: 'failed' })
      continue
    }
    const test = compareRuns(/** @type {number[][]} */ (measuredA), /** @type {number[][]} */ (measuredB), { betweenRuns })
    comparisons.push({
      ...comparisonEntry(name, Math.exp(test.a.mean), Math.exp(test.b.mean), test),
      runs: { a: test.a.runs, b: test.b.runs },
      spreadFrom: { a: test.a.from, b: test.b.from }
    })
  }
  return { comparisons, missing }
}

/** @param {any} docA @param {any} docB */
function compareLoad (docA, docB) {
  const a = docA.requests.perSecond.samples
  const b = docB.requests.perSecond.samples
  /** @type {Missing[]} */
  const missing = []
  if (a.length === 0 || b.length === 0) return { comparisons: [], missing: [{ name: 'Req/Sec', why: /** @type {const} */ ('failed') }] }
  return { comparisons: [comparisonEntry('Req/Sec', mean(a), mean(b), compareGroups(a, b))], missing }
}
