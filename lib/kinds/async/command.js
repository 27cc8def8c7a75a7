import { copyFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { collectorFile } from '../../observe/processes.js'
import { writeMeta } from '../../run-folder.js'
import { measureAsyncCallNs } from './call-cost-command.js'
import { FILES, renderFolder } from './folder.js'
import { observeRun, servingProcess } from '../../commands/observed-run.js'

/** One request in this many is traced, unless --sample says otherwise. */
export const DEFAULT_SAMPLE = 100
/** At most this many requests are traced a second, unless --max-rate says otherwise. */
export const DEFAULT_MAX_RATE = 50
/**
 * The first this many requests are traced one after another, whatever
 * --sample says: at fifty connections, one in a hundred would trace one
 * request in thousands (each trace puts the requests beside it under the hooks).
 */
export const MIN_TRACED = 25

/**
 * @typedef {import('../../commands/observed-run.js').ObservingOptions & { sample: number, maxRate: number }} AsyncOptions
 *
 * @typedef {object} AsyncResult
 * @property {string} folder
 * @property {import('../../run-folder.js').RunMeta} meta
 * @property {ReturnType<typeof renderFolder>} rendered
 * @property {import('../../errors.js').DynoError | null} failure
 */

/**
 * `dyno async`: where the app's requests spend their time waiting, while the
 * load (or the --on-port command, or nothing) runs. One request in `sample`,
 * and no more than `maxRate` a second, is traced operation by operation; the findings, the critical paths and the
 * report come from those. A failing app, or requests that never finished,
 * still get their report from what was traced.
 * @param {AsyncOptions} options
 * @param {import('../../commands/io.js').CommandIO} io
 * @returns {Promise<{ result: AsyncResult, exitCode: number }>}
 */
export async function runAsync (options, io) {
  const traced = (/** @type {import('../../observe/processes.js').ProcessRecord} */ process) => size(asyncFile(process))
  const run = await observeRun('async', options, io, {
    collectors: { async: { sample: options.sample, perSecond: options.maxRate, minTraced: MIN_TRACED } },
    busy: traced,
    options: { sample: options.sample, maxRate: options.maxRate }
  })
  const data = asyncFile(servingProcess(run, traced))
  if (data) copyFileSync(data, join(run.folder, FILES.data))
  // What an unneeded async call costs here, for the findings of that kind: measured once the app has stopped.
  run.meta.options = { ...run.meta.options, asyncCallNs: await measureAsyncCallNs() }
  writeMeta(run.folder, run.meta)
  const rendered = renderFolder(run.folder)
  return { result: { folder: run.folder, meta: run.meta, rendered, failure: run.failure }, exitCode: run.exitCode }
}

/** @param {import('../../observe/processes.js').ProcessRecord} process */
function asyncFile (process) {
  return collectorFile(process, 'async', 'jsonl')
}

/** @param {string | null} file */
function size (file) {
  try {
    return file ? statSync(file).size : 0
  } catch {
    return 0
  }
}
