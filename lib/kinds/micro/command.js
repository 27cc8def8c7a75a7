import { mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { dynoError, exitCodeOf } from '../../errors.js'
import { microResult } from '../../micro/result.js'
import { runFile } from '../../micro/runner.js'
import { addRun, microRuns } from '../../micro/saved.js'
import { signalExitCode } from '../../commands/io.js'

/**
 * `dyno micro`: runs benchmark files, builds the result document, adds it to
 * the saved runs of a name, and decides the exit code.
 *
 * @typedef {import('./types.js').MicroOptions} MicroOptions
 * @typedef {import('./types.js').Failure} Failure
 * @typedef {import('./types.js').MicroOutcome} MicroOutcome
 */

/**
 * @param {MicroOptions} options
 * @param {import('../../commands/io.js').CommandIO} io
 * @returns {Promise<{ result: MicroOutcome, exitCode: number }>}
 */
export async function runMicro (options, io) {
  if (options.files.length === 0) throw dynoError('DYNO_NO_FILE')
  const savePath = options.save === null ? null : savedPath(options.save, io.cwd)
  // Checked before measuring: a name that cannot take the run should not cost the run.
  if (savePath) {
    await readSaved(savePath, io.cwd)
    await checkWritable(savePath, io.cwd)
  }
  const files = []
  for (const path of options.files) files.push(await benchmarkFile(path, io.cwd))

  const startedAt = new Date()
  const reports = []
  for (const file of files) {
    const report = await runFile(file, options.settings, {
      signal: io.signal,
      onProgress: io.onEvent && ((progress) => io.onEvent?.({ type: 'micro-round', progress }))
    })
    reports.push(report)
    io.onEvent?.({ type: 'micro-file', report })
  }
  const document = microResult(reports, options.settings, { startedAt, cwd: io.cwd, node: process.version, v8: process.versions.v8 })

  let saved = null
  if (savePath) {
    const runs = addRun(await readSaved(savePath, io.cwd), document)
    await mkdir(join(savePath, '..'), { recursive: true })
    await writeFile(savePath, JSON.stringify(runs) + '\n')
    saved = { path: savePath, run: runs.runs.length }
  }
  const failures = failuresOf(reports, io.cwd)
  const exitCode = io.signal?.aborted ? interruptedExitCode(io.signal) : failuresExitCode(failures)
  return { result: { document, reports, saved, failures }, exitCode }
}

/**
 * 0 when nothing failed; else the exit code the failures' codes are declared with (1).
 * @param {Failure[]} failures
 */
export function failuresExitCode (failures) {
  return Math.max(0, ...failures.map((f) => exitCodeOf(f.code)))
}

/**
 * 130 for Ctrl-C, 143 for SIGTERM: as a shell reports a run stopped by that signal.
 * @param {AbortSignal} signal
 */
export function interruptedExitCode (signal) {
  return signalExitCode(typeof signal.reason === 'string' ? signal.reason : 'SIGINT')
}

/** @param {string} name @param {string} cwd */
function savedPath (name, cwd) {
  if (!/^[\w.-]+$/.test(name) || /^\.+$/.test(name)) {
    throw dynoError('DYNO_BAD_FLAG.saveName', { name })
  }
  return join(cwd, '.dyno', 'micro', `${name}.json`)
}

/**
 * Fails, in one line, when the run could not be saved where it is to go:
 * checked before measuring, so that no result is lost at the end.
 * @param {string} path @param {string} cwd
 */
async function checkWritable (path, cwd) {
  const probe = `${path}.${process.pid}.check`
  try {
    await mkdir(join(path, '..'), { recursive: true })
    await writeFile(probe, '')
    await unlink(probe)
  } catch (err) {
    throw dynoError('DYNO_BAD_SAVE.notWritable', { file: relative(cwd, path), why: /** @type {NodeJS.ErrnoException} */ (err).code ?? /** @type {Error} */ (err).message })
  }
}

/**
 * The saved runs already under a name: null when there are none.
 * @param {string} path @param {string} cwd
 */
async function readSaved (path, cwd) {
  let text
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return null
    throw dynoError('DYNO_BAD_SAVE.unreadable', { file: relative(cwd, path), why: /** @type {Error} */ (err).message })
  }
  let doc = null
  try {
    doc = JSON.parse(text)
  } catch {}
  if (!microRuns(doc)) {
    throw dynoError('DYNO_BAD_SAVE.notRuns', { file: relative(cwd, path) })
  }
  return doc
}

/**
 * The absolute path of a benchmark file that exists; one line and exit code 2 otherwise.
 * @param {string} path @param {string} cwd
 */
export async function benchmarkFile (path, cwd) {
  const file = resolve(cwd, path)
  const info = await stat(file).catch(() => null)
  if (!info) throw dynoError('DYNO_BAD_FILE.noBenchmark', { file: path })
  if (!info.isFile()) throw dynoError('DYNO_BAD_FILE.notBenchmark', { file: path })
  return file
}

/**
 * @param {import('../../micro/runner.js').FileReport[]} reports @param {string} cwd
 * @returns {Failure[]}
 */
function failuresOf (reports, cwd) {
  return reports.flatMap((r) => {
    const file = relative(cwd, r.file)
    return r.error ? [{ file, case: null, ...r.error }] : caseFailures(file, r.groups)
  })
}

/**
 * The cases that failed, in the order they were declared.
 * @param {string} file as the failure names it
 * @param {import('../../micro/analyze.js').GroupReport[]} groups
 * @returns {Failure[]}
 */
export function caseFailures (file, groups) {
  return groups.flatMap((g) => g.cases.flatMap((c) => (c.error ? [{ file, case: g.name ? `${g.name} › ${c.name}` : c.name, ...c.error }] : [])))
}
