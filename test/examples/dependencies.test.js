/**
 * What the examples import: a package only an example uses is that
 * example's own dependency (in its package.json, with its lockfile), not
 * dyno's; the tests install it before they start the example.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { dependenciesInstalled, exampleWithDependencies } from '../helpers/examples.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** @param {string} file */
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'))

/**
 * The packages the .js files of a folder import, by name, outside node_modules.
 * @param {string} dir
 * @param {Set<string>} [names]
 * @returns {Set<string>}
 */
function importedPackages (dir, names = new Set()) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory() && entry.name !== 'node_modules') importedPackages(path, names)
    if (!entry.isFile() || !/\.[cm]?js$/.test(entry.name)) continue
    for (const [, specifier] of readFileSync(path, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)) {
      if (/^(\.|\/|node:)/.test(specifier)) continue
      names.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0])
    }
  }
  return names
}

test('pug, which only examples/template uses, is that example\'s dependency, with express, and locked there; not dyno\'s', () => {
  const rootPackage = readJson(join(root, 'package.json'))
  const rootDeps = { ...rootPackage.dependencies, ...rootPackage.devDependencies }
  assert.equal(rootDeps.pug, undefined)
  assert.equal(readJson(join(root, 'package-lock.json')).packages['node_modules/pug'], undefined)
  // express stays dyno's too: test/fixtures/apps/pg-leak.js and examples/postgres use it.
  assert.ok(rootDeps.express)
  assert.ok(importedPackages(join(root, 'test', 'fixtures', 'apps')).has('express'))

  const dir = join(root, 'examples', 'template')
  const own = readJson(join(dir, 'package.json'))
  // express loads pug by the view engine's name, from beside itself: both are the example's.
  assert.deepEqual(Object.keys(own.dependencies).sort(), ['express', 'pug'])
  assert.ok(importedPackages(dir).has('express'))
  const lock = readJson(join(dir, 'package-lock.json'))
  assert.deepEqual(lock.packages[''].dependencies, own.dependencies)
  for (const name of ['express', 'pug']) assert.ok(lock.packages[`node_modules/${name}`]?.integrity, `${name} is locked`)
})

test('every package an example imports is its own dependency or dyno\'s', () => {
  const rootPackage = readJson(join(root, 'package.json'))
  const rootDeps = { ...rootPackage.dependencies, ...rootPackage.devDependencies }
  for (const entry of readdirSync(join(root, 'examples'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue
    const dir = join(root, 'examples', entry.name)
    const own = existsSync(join(dir, 'package.json')) ? readJson(join(dir, 'package.json')).dependencies ?? {} : {}
    for (const name of importedPackages(dir)) assert.ok(name in own || name in rootDeps || name === rootPackage.name, `examples/${entry.name} imports ${name}, which no package.json declares`)
  }
})

test('a test that starts examples/template installs its dependencies first, as its lockfile has them', async () => {
  const dir = await exampleWithDependencies('template')
  assert.ok(dependenciesInstalled(dir))
  // The example's express is its own, so that it finds pug beside it.
  for (const name of ['express', 'pug']) assert.ok(existsSync(join(dir, 'node_modules', name, 'package.json')), `${name} is installed in the example`)
})
