import { copyFileSync, readFileSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { whyNotProfile } from '../../cpu-profile/cpuprofile.js'
import { dynoError, fileProblem } from '../../errors.js'
import { createRunFolder, fileRunMeta, writeMeta } from '../../run-folder.js'
import { FILES, renderFolder } from './folder.js'

/**
 * `dyno flame --view`: a profile from elsewhere (node --cpu-prof, DevTools)
 * gets a run folder of its own, rendered as a flame run's would be.
 * @param {{ file: string, out: string }} options
 * @param {import('../../commands/io.js').CommandIO} io
 */
export function viewProfile (options, io) {
  const path = resolve(io.cwd, options.file)
  let profile
  try {
    profile = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    const e = /** @type {NodeJS.ErrnoException} */ (err)
    throw e.code === 'ENOENT' ? dynoError('DYNO_BAD_PROFILE.missing', { file: options.file }) : dynoError('DYNO_BAD_PROFILE.notJson', { file: options.file, why: fileProblem(e) })
  }
  const why = whyNotProfile(profile)
  if (why) throw dynoError('DYNO_BAD_PROFILE.notProfile', { file: options.file, why })
  const folder = createRunFolder(resolve(io.cwd, options.out), 'flame')
  copyFileSync(path, resolve(folder, FILES.profile))
  writeMeta(folder, fileRunMeta('flame', { title: basename(options.file), source: path, cwd: io.cwd, options: {} }))
  return { result: { folder, rendered: renderFolder(folder, profile) }, exitCode: 0 }
}
