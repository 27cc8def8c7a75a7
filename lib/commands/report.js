import { resolve } from 'node:path'
import { usageError } from '../errors.js'
import { KINDS, findKind } from '../kinds.js'
import { readMeta } from '../run-folder.js'

/**
 * `dyno report <folder>`: renders a run folder's reports again from its raw
 * data (after an upgrade, or on data copied from elsewhere), by its kind.
 * @param {{ folder: string }} options
 * @param {import('./io.js').CommandIO} io
 */
export async function runReport (options, io) {
  const folder = resolve(io.cwd, options.folder)
  const meta = readMeta(folder)
  const kind = findKind(meta.kind)
  if (!kind?.folder) {
    const kinds = KINDS.filter((k) => k.folder).map((k) => k.name).join(', ')
    throw usageError('DYNO_BAD_RUN_FOLDER', `${options.folder} holds a "${meta.kind}" run, which this dyno cannot render; the kinds it renders are ${kinds}`)
  }
  const folderModule = await kind.folder()
  let rendered
  try {
    rendered = await folderModule.renderFolder(folder)
  } catch (err) {
    const code = /** @type {NodeJS.ErrnoException} */ (err).code
    if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') throw err
    throw usageError('DYNO_FOLDER_NOT_WRITABLE', `cannot write the reports into ${options.folder} (${code}): dyno report writes them beside the data; copy the folder somewhere writable and name the copy`)
  }
  return { result: { folder, kind: meta.kind, meta, rendered, summarize: folderModule.summarize }, exitCode: 0 }
}
