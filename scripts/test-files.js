/**
 * The test files under the given files or folders, sorted: `*.test.js`,
 * outside node_modules and test/fixtures. Node's own search would also take
 * every .js file inside a folder named test (helpers and fixtures included).
 *
 * A folder named timing is left out when a walk reaches it from above: its
 * tests measure how fast this machine is, and run on their own (see
 * scripts/test.js). Named itself, it gives its files like any folder.
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Folders a walk from above skips. */
const SKIPPED = new Set(['node_modules', 'fixtures', 'timing'])

/** @param {string} path @returns {string[]} */
export function testFiles (path) {
  if (statSync(path).isFile()) return [path]
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    const inner = join(path, entry.name)
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : testFiles(inner)
    return entry.name.endsWith('.test.js') ? [inner] : []
  }).sort()
}
