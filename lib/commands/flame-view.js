import { copyFileSync, readFileSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { whyNotProfile } from '../analyze/cpuprofile.js'
import { usageError } from '../errors.js'
import { createRunFolder, writeJson } from '../run-folder.js'
import { FILES, renderFlameFolder } from './flame-report.js'

/**
 * `dyno flame --view`: a profile from elsewhere (node --cpu-prof, DevTools)
 * gets a run folder of its own, rendered as a flame run's would be.
 * @param {string} file @param {string} out the folder runs go in @param {string} cwd
 */
export function viewProfile (file, out, cwd) {
  const path = resolve(cwd, file)
  let profile
  try {
    profile = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    const e = /** @type {NodeJS.ErrnoException} */ (err)
    throw usageError('DYNO_BAD_PROFILE', e.code === 'ENOENT' ? `no such file: ${file}` : `cannot read ${file} as JSON: ${e.message}`)
  }
  const why = whyNotProfile(profile)
  if (why) throw usageError('DYNO_BAD_PROFILE', `${file} is not a CPU profile (.cpuprofile): ${why}`)
  const folder = createRunFolder(resolve(cwd, out), 'flame')
  copyFileSync(path, resolve(folder, FILES.profile))
  writeJson(folder, FILES.meta, { schemaVersion: 1, command: 'flame', title: basename(file), view: path, cwd, startedAt: new Date().toISOString() })
  return renderFlameFolder(folder, profile)
}
