import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const root = fileURLToPath(new URL('..', import.meta.url))
const lib = join(root, 'lib')
const cli = join(lib, 'cli') + sep

/** @param {string} dir @returns {string[]} */
function sourceFiles (dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.[cm]?js$/.test(entry.name) ? [path] : []
  })
}

/**
 * Every module a file names: imports, re-exports, import() and require()
 * (as TypeScript's pre-processor finds them), and the types that JSDoc
 * comments import.
 * @param {string} file
 */
function specifiers (file) {
  const source = readFileSync(file, 'utf8')
  const found = ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName)
  for (const m of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1])
  return found
}

test('nothing under lib/ outside lib/cli/ imports lib/cli/: the CLI depends on the library, never the reverse', () => {
  const files = sourceFiles(lib).filter((f) => !f.startsWith(cli))
  assert.ok(files.length > 20, 'the walk found the library')
  const offenders = []
  for (const file of files) {
    for (const specifier of specifiers(file)) {
      if (!specifier.startsWith('.')) continue
      if (resolve(dirname(file), specifier).startsWith(cli)) offenders.push(`${relative(root, file)} imports ${specifier}`)
    }
  }
  assert.deepEqual(offenders, [])
})

test('the import scan sees static, dynamic and type imports', () => {
  const probe = join(lib, 'micro', 'api.js')
  assert.ok(specifiers(probe).includes('./registry.js'))
  assert.ok(specifiers(probe).includes('./standalone.js'))
  assert.ok(specifiers(join(lib, 'micro', 'standalone.js')).includes('../commands/micro.js'))
  assert.ok(specifiers(join(lib, 'report', 'micro-terminal.js')).includes('../commands/micro.js'), 'a type imported in JSDoc')
})
