import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { usageError } from './errors.js'

/**
 * One run, one folder: `.dyno/<time>-<command>/` holds the raw data in
 * standard formats and `meta.json`, so any report can be rendered again.
 */

/**
 * @param {string} base the folder runs go in (`.dyno` by default)
 * @param {string} command
 * @param {Date} [now]
 */
export function createRunFolder (base, command, now = new Date()) {
  const stamp = now.toISOString().replace(/\.\d+Z$/, '').replace(/:/g, '-')
  let folder = resolve(base, `${stamp}-${command}`)
  for (let n = 2; existsSync(folder); n++) folder = resolve(base, `${stamp}-${command}-${n}`)
  mkdirSync(folder, { recursive: true })
  return folder
}

/** @param {string} folder @param {string} name @param {unknown} value */
export function writeJson (folder, name, value) {
  writeFileSync(join(folder, name), JSON.stringify(value, null, 2) + '\n')
}

/**
 * @param {string} folder @param {string} name
 * @returns {any}
 */
export function readJson (folder, name) {
  const path = join(folder, name)
  let text
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    const code = /** @type {NodeJS.ErrnoException} */ (err).code
    throw usageError('DYNO_BAD_RUN_FOLDER', code === 'ENOENT' ? `${path} does not exist; is ${folder} a dyno run folder?` : `cannot read ${path}: ${/** @type {Error} */ (err).message}`)
  }
  try {
    return JSON.parse(text)
  } catch (err) {
    throw usageError('DYNO_BAD_RUN_FOLDER', `${path} is not valid JSON: ${/** @type {Error} */ (err).message}`)
  }
}
