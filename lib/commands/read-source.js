import { readFileSync, statSync } from 'node:fs'

/** Source files larger than this are not read into reports. */
const MAX_SOURCE_BYTES = 1024 * 1024

/**
 * The text of one of the app's source files, or null when it is gone,
 * unreadable or too large to embed.
 * @param {string} path
 */
export function readSource (path) {
  try {
    if (statSync(path).size > MAX_SOURCE_BYTES) return null
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}
