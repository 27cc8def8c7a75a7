/**
 * The test files under the given files or folders, sorted: `*.test.js`,
 * outside node_modules and test/fixtures. Node's own search would also take
 * every .js file inside a folder named test (helpers and fixtures included).
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** @param {string} path @returns {string[]} */
export function testFiles (path) {
  if (statSync(path).isFile()) return [path]
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    const inner = join(path, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'fixtures' ? [] : testFiles(inner)
    return entry.name.endsWith('.test.js') ? [inner] : []
  }).sort()
}
