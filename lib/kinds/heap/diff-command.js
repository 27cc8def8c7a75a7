import { rmSync, statSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { dynoError } from '../../errors.js'
import { createRunFolder, fileRunMeta, writeMeta } from '../../run-folder.js'
import { renderFolder } from './folder.js'

/**
 * `dyno heap diff a b [c]`: snapshots taken elsewhere (DevTools,
 * v8.writeHeapSnapshot, --heapsnapshot-signal) compared as `dyno heap`
 * compares its own. With three, the objects made between the first two and
 * still alive in the third are the ones whose paths are followed. The run
 * folder refers to the snapshots where they are, rather than copy them.
 * @param {{ files: string[], out: string }} options
 * @param {import('../../commands/io.js').CommandIO} io
 */
export async function runHeapDiff (options, io) {
  if (options.files.length < 2 || options.files.length > 3) throw dynoError('DYNO_BAD_ARGUMENTS.snapshots')
  const files = options.files.map((file) => resolve(io.cwd, file))
  for (const [i, file] of files.entries()) {
    let info = null
    try {
      info = statSync(file)
    } catch {}
    if (!info) throw dynoError('DYNO_BAD_FILE.missing', { file: options.files[i] })
    if (!info.isFile()) throw dynoError('DYNO_BAD_FILE.folderNotSnapshot', { file: options.files[i] })
  }
  const folder = createRunFolder(resolve(io.cwd, options.out), 'heap')
  writeMeta(folder, fileRunMeta('heap', {
    title: files.map((file) => basename(file)).join(' → '),
    source: files[0],
    cwd: io.cwd,
    options: { sampling: false, snapshots: files, timings: [], heapprofile: null }
  }))
  try {
    const rendered = await renderFolder(folder, { onProgress: (message) => io.onEvent?.({ type: 'status', message }) })
    return { result: { folder, rendered }, exitCode: 0 }
  } catch (err) {
    // Nothing came of it: no folder left behind.
    rmSync(folder, { recursive: true, force: true })
    throw err
  }
}
