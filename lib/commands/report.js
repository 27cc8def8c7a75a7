import { resolve } from 'node:path'
import { usageError } from '../errors.js'
import { readMeta } from '../run-folder.js'

/**
 * How each kind of run folder is rendered again. A command that writes run
 * folders adds its line here.
 * @type {Record<string, (folder: string) => Promise<unknown>>}
 */
const RENDERERS = {
  flame: async (folder) => (await import('./flame-report.js')).renderFlameFolder(folder),
  doctor: async (folder) => (await import('./doctor-report.js')).renderDoctorFolder(folder),
  heap: async (folder) => (await import('./heap-report.js')).renderHeapFolder(folder),
  async: async (folder) => (await import('./async-report.js')).renderAsyncFolder(folder),
  compare: async (folder) => (await import('./compare-report.js')).renderCompareFolder(folder)
}

/**
 * `dyno report <folder>`: renders a run folder's reports again from its raw
 * data (after an upgrade, or on data copied from elsewhere), by its kind.
 * @param {{ folder: string }} options
 * @param {import('./io.js').CommandIO} io
 */
export async function runReport (options, io) {
  const folder = resolve(io.cwd, options.folder)
  const meta = readMeta(folder)
  const render = RENDERERS[meta.kind]
  if (!render) throw usageError('DYNO_BAD_RUN_FOLDER', `${options.folder} holds a "${meta.kind}" run, which this dyno cannot render; the kinds it renders are ${Object.keys(RENDERERS).join(', ')}`)
  let rendered
  try {
    rendered = await render(folder)
  } catch (err) {
    const code = /** @type {NodeJS.ErrnoException} */ (err).code
    if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') throw err
    throw usageError('DYNO_FOLDER_NOT_WRITABLE', `cannot write the reports into ${options.folder} (${code}): dyno report writes them beside the data; copy the folder somewhere writable and name the copy`)
  }
  return { result: { folder, kind: meta.kind, meta, rendered }, exitCode: 0 }
}
