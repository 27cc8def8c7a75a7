import { readFile } from 'node:fs/promises'
import { extname, isAbsolute, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { dynoError } from '../errors.js'
import { firstBadRequest } from './request-check.js'

/**
 * Reads a sequence of requests from a JSON file (an array) or a module whose
 * default export (or `requests` export) is that array. Modules may give each
 * request a `setupRequest(request, context)` hook that builds it per send.
 * @param {string} file
 * @returns {Promise<import('./request.js').RequestSpec[]>}
 */
export async function loadRequestsFile (file) {
  const path = resolve(file)
  let requests
  if (extname(path) === '.json') {
    let text
    try {
      text = await readFile(path, 'utf8')
    } catch (err) {
      throw dynoError('DYNO_BAD_REQUESTS_FILE.unreadable', { file, why: /** @type {Error} */ (err).message })
    }
    try {
      requests = JSON.parse(text)
    } catch (err) {
      throw dynoError('DYNO_BAD_REQUESTS_FILE.notJson', { file, why: /** @type {Error} */ (err).message })
    }
  } else {
    let mod
    try {
      mod = await import(pathToFileURL(path).href)
    } catch (err) {
      const e = /** @type {NodeJS.ErrnoException} */ (err)
      const why = e.code === 'ERR_MODULE_NOT_FOUND' && e.message.includes(path) ? 'no such file' : e.code === 'ERR_UNSUPPORTED_DIR_IMPORT' ? 'it is a folder, not a file' : e.message
      throw dynoError('DYNO_BAD_REQUESTS_FILE.notLoaded', { file, why })
    }
    requests = mod.requests ?? mod.default
    if (requests && !Array.isArray(requests) && Array.isArray(requests.requests)) requests = requests.requests
  }
  if (!Array.isArray(requests) || requests.length === 0) {
    throw dynoError('DYNO_BAD_REQUESTS_FILE.noRequests', { file })
  }
  const bad = firstBadRequest(requests)
  if (bad !== null) throw dynoError('DYNO_BAD_REQUESTS_FILE.badRequest', { file: displayPath(file), number: bad.index + 1, problem: bad.problem })
  return requests
}

/**
 * A file's path as a user reads it in a message: relative to the working
 * directory when inside it.
 * @param {string} file
 */
export function displayPath (file) {
  const rel = relative(process.cwd(), resolve(file))
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file
}
