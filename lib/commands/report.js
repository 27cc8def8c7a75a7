import { resolve } from 'node:path'
import { dynoError } from '../errors.js'
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
    throw dynoError('DYNO_BAD_RUN_FOLDER.unknownKind', { folder: options.folder, kind: meta.kind, kinds })
  }
  const folderModule = await kind.folder()
  let rendered
  try {
    rendered = await folderModule.renderFolder(folder)
  } catch (err) {
    const code = /** @type {NodeJS.ErrnoException} */ (err).code
    if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') throw err
    throw dynoError('DYNO_FOLDER_NOT_WRITABLE', { folder: options.folder, code })
  }
  return { result: { folder, kind: meta.kind, meta, rendered, summarize: folderModule.summarize }, exitCode: 0 }
}
