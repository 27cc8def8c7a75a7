import { microRuns } from '../micro/saved.js'
import { compareGroups } from '../stats/welch.js'

/**
 * dyno compare: two results, measurement by measurement. Pure.
 *
 * Micro results are compared case by case on per-process ops/sec, the same
 * unit of replication dyno micro tests with. Two runs are not paired round
 * by round (their rounds ran at different times), so the test is Welch's on
 * the two sets of processes. Results of schema 1 (each process's figure the
 * mean over all its samples) are read too; schema 2 takes the median of its
 * slices. Load results are compared on
 * their per-second request rates, as autocannon-compare does; those seconds
 * come from one process and drift together, so the test is only as good as
 * the two runs are representative: repeat runs before trusting a small
 * difference.
 *
 * @typedef {'micro' | 'load'} ResultKind
 *
 * @typedef {object} Row
 * @property {string} name
 * @property {number | null} a mean in a
 * @property {number | null} b mean in b
 * @property {import('../stats/welch.js').Comparison | null} comparison ratio = b / a
 * @property {'faster' | 'slower' | 'indistinguishable' | 'only in a' | 'only in b' | 'failed'} verdict
 */

/**
 * @param {any} doc parsed JSON
 * @returns {ResultKind | null}
 */
export function resultKind (doc) {
  if (!doc || typeof doc !== 'object' || typeof doc.schemaVersion !== 'number') return null
  if (microRuns(doc)) return 'micro'
  if (Array.isArray(doc.requests?.perSecond?.samples)) return 'load'
  return null
}

/**
 * @param {{ kind: ResultKind, doc: any }} a
 * @param {{ kind: ResultKind, doc: any }} b
 */
export function compareResults (a, b) {
  const rows = a.kind === 'micro' ? compareMicro(a.doc, b.doc) : compareLoad(a.doc, b.doc)
  return {
    kind: a.kind,
    unit: a.kind === 'micro' ? 'ops/sec' : 'req/sec',
    a: describeRun(a),
    b: describeRun(b),
    rows
  }
}

/**
 * @param {{ kind: ResultKind, doc: any }} result
 * @returns {{ node: string | null, startedAt: string | null, schemaVersion: number }}
 */
function describeRun ({ kind, doc }) {
  const run = kind === 'micro' ? /** @type {any[]} */ (microRuns(doc)).at(-1) : doc
  return { node: run.node ?? null, startedAt: run.startedAt ?? null, schemaVersion: run.schemaVersion }
}

/**
 * @param {any} doc
 * @returns {Map<string, number[] | null>} per-process ops/sec by case (null: the case failed)
 */
function microCases (doc) {
  const cases = new Map()
  for (const file of /** @type {any[]} */ (microRuns(doc)).flatMap((run) => run.files)) {
    for (const group of file.groups ?? []) {
      for (const c of group.cases) {
        const name = group.name ? `${group.name} › ${c.name}` : c.name
        // Saved runs under one name: their processes together, for now.
        const before = cases.get(name)
        cases.set(name, c.summary && before !== null ? [...(before ?? []), ...c.summary.processOpsPerSecond] : null)
      }
    }
  }
  return cases
}

/** @param {any} docA @param {any} docB @returns {Row[]} */
function compareMicro (docA, docB) {
  const a = microCases(docA)
  const b = microCases(docB)
  const names = [...new Set([...a.keys(), ...b.keys()])]
  return names.map((name) => row(name, a.has(name) ? a.get(name) ?? null : undefined, b.has(name) ? b.get(name) ?? null : undefined))
}

/** @param {any} docA @param {any} docB @returns {Row[]} */
function compareLoad (docA, docB) {
  return [row('Req/Sec', docA.requests.perSecond.samples, docB.requests.perSecond.samples)]
}

/**
 * @param {string} name
 * @param {number[] | null | undefined} a undefined: absent; null: failed
 * @param {number[] | null | undefined} b
 * @returns {Row}
 */
function row (name, a, b) {
  const meanOf = (/** @type {number[] | null | undefined} */ xs) => (xs && xs.length > 0 ? xs.reduce((s, x) => s + x, 0) / xs.length : null)
  const base = { name, a: meanOf(a), b: meanOf(b), comparison: null }
  if (a === undefined) return { ...base, verdict: 'only in b' }
  if (b === undefined) return { ...base, verdict: 'only in a' }
  if (!a || !b || a.length === 0 || b.length === 0) return { ...base, verdict: 'failed' }
  const comparison = compareGroups(a, b)
  const verdict = comparison.verdict === 'higher' ? 'faster' : comparison.verdict === 'lower' ? 'slower' : 'indistinguishable'
  return { ...base, comparison, verdict }
}
