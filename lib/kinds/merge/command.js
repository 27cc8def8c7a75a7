import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { dynoError, fileProblem } from '../../errors.js'
import { decodeHistogram } from '../../load/histogram.js'
import { mergeResults, notOneLoad } from './merge.js'
import { judgeThresholds, thresholdsOutcome } from '../load/thresholds.js'

/**
 * `dyno merge <result.json>…`: reads the --json results of the generators of
 * one load and merges them (see merge.js); thresholds (--fail-on) are judged
 * on the merged whole, never on one generator's share.
 * @param {{ files: string[], thresholds?: readonly import('../load/thresholds.js').Threshold[] | null }} options
 * @param {import('../../commands/io.js').CommandIO} io
 * @returns {Promise<{ result: import('./merge.js').MergedResult & { thresholds?: import('../load/thresholds.js').Verdict[] }, exitCode: number, thresholdLines: string[] }>}
 */
export async function runMerge (options, io) {
  if (options.files.length === 0) throw dynoError('DYNO_NO_RESULT')
  const parts = []
  for (const file of options.files) parts.push({ name: file, ...await readResult(resolve(io.cwd, file), file) })
  const other = notOneLoad(parts)
  if (other?.differs === 'url') throw dynoError('DYNO_NOT_ONE_LOAD.url', other.values)
  if (other?.differs === 'method') throw dynoError('DYNO_NOT_ONE_LOAD.method', other.values)
  const result = mergeResults(parts)
  if (!options.thresholds) return { result, exitCode: 0, thresholdLines: [] }
  const verdicts = judgeThresholds(options.thresholds, result)
  const judged = thresholdsOutcome(verdicts)
  return { result: { ...result, thresholds: verdicts }, exitCode: judged.exitCode, thresholdLines: judged.lines }
}

/**
 * A result as `dyno load --json` printed it, alone in its file or among
 * other lines (a pod's log): the document runs from a line `{` to a line `}`.
 * @param {string} path
 * @param {string} name as the user gave it
 * @returns {Promise<{ result: import('../../load/summary.js').LoadResult, histogram: import('hdr-histogram-js').Histogram }>}
 */
async function readResult (path, name) {
  let text
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    throw dynoError('DYNO_BAD_FILE.unreadable', { file: name, why: fileProblem(err) })
  }
  const value = parseDocument(text)
  if (value === undefined) throw dynoError('DYNO_BAD_RESULT.noDocument', { name })
  const why = whyNotResult(value)
  if (why) throw dynoError('DYNO_BAD_RESULT.notResult', { name, why })
  let histogram
  try {
    histogram = decodeHistogram(/** @type {any} */ (value).latency.histogram.data)
  } catch {
    throw dynoError('DYNO_BAD_RESULT.notResult', { name, why: 'its latency histogram cannot be decoded' })
  }
  return { result: withDefaults(value), histogram }
}

/** @param {string} text @returns {unknown} */
function parseDocument (text) {
  try {
    return JSON.parse(text)
  } catch {}
  const lines = text.split('\n')
  const first = lines.indexOf('{')
  const last = lines.lastIndexOf('}')
  if (first === -1 || last <= first) return undefined
  try {
    return JSON.parse(lines.slice(first, last + 1).join('\n'))
  } catch {
    return undefined
  }
}

/** @param {any} value @returns {string | null} */
function whyNotResult (value) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'it is not a JSON object'
  if (value.schemaVersion !== 1) return `its schemaVersion is ${JSON.stringify(value.schemaVersion)}, not 1`
  if (typeof value.url !== 'string' || typeof value.startedAt !== 'string' || !Number.isFinite(Date.parse(value.startedAt))) return 'it has no url or start time'
  if (!value.requests || typeof value.requests.completed !== 'number' || !value.requests.perSecond || !Array.isArray(value.requests.perSecond.samples)) return 'it has no request counts'
  if (typeof value.latency?.histogram?.data !== 'string') return 'it has no latency histogram (results of dyno before 0.1 have none)'
  return null
}

/**
 * Results written before segments had none of these: one whole load, by
 * an unknown generator.
 * @param {any} value
 * @returns {import('../../load/summary.js').LoadResult}
 */
function withDefaults (value) {
  return {
    ...value,
    plan: value.plan ?? { duration: null, amount: null, timeout: null },
    segment: value.segment ?? { index: 0, count: 1, connections: value.connections, amount: null, rate: value.rate ?? null },
    startAt: value.startAt ?? null,
    serverClock: value.serverClock ?? null,
    generator: { rawWrite: null, ...(value.generator ?? { host: 'unknown', pid: 0, threads: 1, cpu: 0 }) }
  }
}
