import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const root = fileURLToPath(new URL('..', import.meta.url))
const lib = join(root, 'lib')

/**
 * The layers of lib/, and which may import which. A file's layer comes from
 * its folder; inside a kind's folder (lib/kinds/<kind>/) from its name:
 *   cli.js                              the kind's flags and printing
 *   command.js, *-command.js,
 *   folder.js, *-folder.js              what runs: observes an app, reads and writes its run folder
 *   terminal.js, html.js, json.js, *-yaml.js,
 *   live.js, words.js, chart-data.js    renderers (and *-terminal.js, *-html.js)
 *   types.js                            the shapes the others share (JSDoc only)
 *   anything else                       its analysis: pure functions of recorded data
 * Type imports in JSDoc count as imports.
 */
/** @type {Record<string, string[]>} */
const ALLOWED = {
  cli: ['*'],
  registry: ['kind:cli', 'kind:run', 'cli', 'report', 'run-folder'],
  'kind:cli': ['*'],
  'kind:run': ['kind:run', 'kind:analysis', 'kind:render', 'kind:types', 'commands', 'observe', 'load', 'micro', 'cpu-profile', 'stats', 'format', 'report', 'run-folder', 'errors', 'checkout', 'v8', 'system'],
  'kind:render': ['kind:render', 'kind:analysis', 'kind:types', 'report', 'format', 'stats', 'cpu-profile', 'load', 'micro', 'run-folder', 'errors', 'v8'],
  'kind:analysis': ['kind:analysis', 'kind:types', 'cpu-profile', 'stats', 'format', 'load', 'micro', 'run-folder', 'errors', 'v8'],
  'kind:types': ['kind:analysis', 'kind:types', 'cpu-profile', 'stats', 'load', 'micro', 'run-folder', 'errors'],
  commands: ['commands', 'registry', 'observe', 'load', 'micro', 'stats', 'run-folder', 'errors'],
  observe: ['observe', 'agent', 'load', 'errors', 'run-folder'],
  'cpu-profile': ['cpu-profile', 'observe', 'v8', 'errors'],
  micro: ['micro', 'stats', 'v8', 'system', 'errors'],
  load: ['load', 'stats', 'errors'],
  report: ['report', 'format', 'stats', 'load', 'run-folder', 'errors'],
  stats: ['stats'],
  agent: ['agent'],
  v8: ['v8'],
  system: [],
  format: [],
  checkout: ['errors'],
  errors: ['errors'],
  'run-folder': ['errors', 'load', 'observe'],
  index: ['load', 'errors']
}

/**
 * Imports across those lines that are the design, each with its reason.
 * @type {{ from: string, to: string, why: string }[]}
 */
const EXCEPTIONS = [
  { from: 'lib/micro/api.js', to: 'lib/cli/micro-standalone.js', why: 'a benchmark file run with plain node is its own command line: api.js is an entry point, like bin/dyno.js' }
]

/**
 * Modules another kind may use: the flamegraph (heap --sampling, compare --flame), the load's tables
 * (every observing command), and the load's --fail-on thresholds (judged alike on any load's result).
 */
const SHARED_ACROSS_KINDS = ['lib/kinds/flame/html.js', 'lib/kinds/load/terminal.js', 'lib/kinds/load/thresholds.js']

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

/**
 * @param {string} file absolute, under lib/
 * @returns {{ layer: string, kind: string | null }}
 */
function layerOf (file) {
  const path = relative(lib, file).split('\\').join('/')
  const inKind = /^kinds\/([^/]+)\/(.+)$/.exec(path)
  if (inKind) {
    const name = basename(inKind[2])
    let role = 'analysis'
    if (name === 'cli.js') role = 'cli'
    else if (/(^|-)(command|folder)\.js$/.test(name)) role = 'run'
    else if (/(^|-)(terminal|html|json|yaml|live|words|chart-data)\.js$/.test(name)) role = 'render'
    else if (name === 'types.js') role = 'types'
    return { layer: `kind:${role}`, kind: inKind[1] }
  }
  if (path === 'kinds.js') return { layer: 'registry', kind: null }
  if (path === 'error-codes.js') return { layer: 'errors', kind: null }
  const [first] = path.split('/')
  return { layer: first.replace(/\.js$/, ''), kind: null }
}

/**
 * What is wrong with `file` importing `target`, or null when the table allows it.
 * @param {string} file @param {string} target absolute paths under lib/
 */
function importProblem (file, target) {
  const from = layerOf(file)
  const to = layerOf(target)
  const fromPath = relative(root, file)
  const toPath = relative(root, target)
  const allowed = ALLOWED[from.layer]
  if (!allowed) return `${fromPath}: in no layer of the table`
  if (EXCEPTIONS.some((e) => e.from === fromPath && e.to === toPath)) return null
  const line = `${fromPath} (${from.layer}) imports ${toPath} (${to.layer})`
  if (from.kind && to.kind && from.kind !== to.kind) return SHARED_ACROSS_KINDS.includes(toPath) ? null : `${line}: a kind imports another kind's code`
  if (to.layer === from.layer && !from.layer.startsWith('kind:')) return null
  return allowed.includes('*') || allowed.includes(to.layer) ? null : line
}

/** Every import in lib/ that crosses the lines above. */
function violations () {
  const found = []
  for (const file of sourceFiles(lib)) {
    for (const specifier of new Set(specifiers(file))) {
      if (!specifier.startsWith('.')) continue
      const target = resolve(dirname(file), specifier)
      if (!target.startsWith(lib + '/')) continue
      const problem = importProblem(file, target)
      if (problem) found.push(problem)
    }
  }
  return found
}

test('every import in lib/ follows the table of layers: the CLI on top, renderers below the commands, the load engine alone', () => {
  assert.deepEqual(violations(), [])
})

test('the table knows every folder of lib/', () => {
  const layers = new Set(sourceFiles(lib).map((f) => layerOf(f).layer))
  for (const layer of layers) assert.ok(layer in ALLOWED, `${layer} is in the table`)
  assert.ok(layers.has('kind:render') && layers.has('kind:run') && layers.has('kind:analysis') && layers.has('cli'))
})

test('each kind\'s files take their layer from their names', () => {
  assert.deepEqual(layerOf(join(lib, 'kinds/doctor/cli.js')), { layer: 'kind:cli', kind: 'doctor' })
  assert.deepEqual(layerOf(join(lib, 'kinds/heap/diff-command.js')), { layer: 'kind:run', kind: 'heap' })
  assert.deepEqual(layerOf(join(lib, 'kinds/compare/flame-diff-terminal.js')), { layer: 'kind:render', kind: 'compare' })
  assert.deepEqual(layerOf(join(lib, 'kinds/compare/flame-diff.js')), { layer: 'kind:analysis', kind: 'compare' })
  assert.deepEqual(layerOf(join(lib, 'kinds/heap/snapshot/dominators.js')), { layer: 'kind:analysis', kind: 'heap' })
  assert.deepEqual(layerOf(join(lib, 'kinds.js')), { layer: 'registry', kind: null })
  assert.deepEqual(layerOf(join(lib, 'load/engine.js')), { layer: 'load', kind: null })
})

test('the table refuses what it should: a renderer importing a command, the load engine importing observe, a kind another kind\'s analysis', () => {
  const at = (/** @type {string} */ path) => join(lib, path)
  assert.match(String(importProblem(at('kinds/heap/terminal.js'), at('kinds/heap/folder.js'))), /kind:render\) imports .* \(kind:run\)/)
  assert.match(String(importProblem(at('kinds/micro/terminal.js'), at('commands/io.js'))), /\(commands\)/)
  assert.match(String(importProblem(at('kinds/doctor/chart-data.js'), at('observe/observe.js'))), /\(observe\)/)
  assert.match(String(importProblem(at('load/engine.js'), at('observe/app.js'))), /\(observe\)/)
  assert.match(String(importProblem(at('kinds/async/html.js'), at('kinds/flame/folder.js'))), /another kind/)
  assert.match(String(importProblem(at('micro/runner.js'), at('cli/flags.js'))), /\(cli\)/)
  assert.equal(importProblem(at('kinds/heap/allocations-folder.js'), at('kinds/flame/html.js')), null, 'the flamegraph is shared')
  assert.equal(importProblem(at('kinds/heap/terminal.js'), at('kinds/heap/analyze.js')), null)
  assert.equal(importProblem(at('micro/api.js'), at('cli/micro-standalone.js')), null, 'the one exception')
})

test('the import scan sees static, dynamic and type imports', () => {
  assert.ok(specifiers(join(lib, 'micro', 'api.js')).includes('./registry.js'))
  assert.ok(specifiers(join(lib, 'kinds.js')).includes('./kinds/flame/cli.js'), 'a dynamic import')
  assert.ok(specifiers(join(lib, 'kinds', 'micro', 'terminal.js')).includes('./types.js'), 'a type imported in JSDoc')
})
