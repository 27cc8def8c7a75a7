import { MICRO_KIND } from './result.js'

/**
 * What `dyno micro --save <name>` keeps in .dyno/micro/<name>.json: every
 * run saved under that name, oldest first. A second save adds a run rather
 * than replacing the first: runs of one version taken at different times
 * show how much this machine drifts between runs, which is what dyno compare
 * needs to tell a change from that drift. Pure.
 */

export const SAVED_KIND = 'dyno-micro-runs'
export const SAVED_SCHEMA_VERSION = 1

/**
 * @typedef {import('./result.js').MicroResult} MicroResult
 * @typedef {{ schemaVersion: number, kind: typeof SAVED_KIND, runs: MicroResult[] }} SavedRuns
 */

/**
 * The runs a document holds: one for a `dyno micro --json` result (of any
 * schema), all of them for a saved file; null for anything else.
 * @param {any} doc parsed JSON
 * @returns {MicroResult[] | null}
 */
export function microRuns (doc) {
  if (!doc || typeof doc !== 'object' || typeof doc.schemaVersion !== 'number') return null
  if (doc.kind === MICRO_KIND && Array.isArray(doc.files)) return [doc]
  if (doc.kind === SAVED_KIND && Array.isArray(doc.runs) && doc.runs.length > 0 && doc.runs.every((/** @type {any} */ r) => microRuns(r)?.length === 1)) return doc.runs
  return null
}

/**
 * @param {any} existing what the file held (parsed), or null when there was no file
 * @param {MicroResult} run
 * @returns {SavedRuns}
 */
export function addRun (existing, run) {
  return { schemaVersion: SAVED_SCHEMA_VERSION, kind: SAVED_KIND, runs: [...(existing === null ? [] : microRuns(existing) ?? []), run] }
}
