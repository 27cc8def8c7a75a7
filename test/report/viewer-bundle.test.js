/**
 * When a report's browser code is bundled: the bundle `npm pack` wrote
 * (viewer/dist/, shipped in the package) while the files it was built from
 * are as they were, else esbuild's, built from the sources once per process.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { bundleViewer, viewerBundle, viewerEntries, writeViewerBundles } from '../../lib/report/viewer-bundle.js'

test('every report has a main module to bundle', () => {
  assert.deepEqual(viewerEntries(), ['async/main.js', 'doctor/main.js', 'flame/main.js', 'heap/main.js'])
})

test('a bundle holds one strict classic script, the CSS its modules import, and the files it came from', () => {
  const { script, style, inputs } = bundleViewer('doctor/main.js')
  assert.match(script, /^"use strict";\n\(\(\) => \{\n/, 'strict, as modules are')
  assert.doesNotMatch(script, /^\s*(import|export)\s/m, 'no module syntax is left')
  assert.ok(script.includes('function startPage('))
  assert.ok(style.includes('.u-legend') && style.includes('.diagnoses'), 'uPlot\'s styles and the doctor\'s')
  assert.ok(style.indexOf('.u-legend') < style.indexOf('.diagnoses'), 'in the order the main module imports them')
  const files = Object.keys(inputs)
  for (const file of ['viewer/doctor/main.js', 'viewer/shared/state.js', 'viewer/style.css']) assert.ok(files.includes(file), file)
  assert.ok(files.some((file) => /uplot\/dist\/uPlot\.esm\.js$/.test(file)), files.join(' '))
  assert.ok(Object.values(inputs).every((hash) => /^[\w+/]{43}=$/.test(hash)), 'each with the hash of its content')
})

/** Bundles written to a folder of their own, as the package's are, each one's script then replaced by `marker`. */
function prebuilt (/** @type {string} */ marker) {
  const dist = mkdtempSync(join(tmpdir(), 'dyno-viewer-dist-'))
  const files = writeViewerBundles(dist)
  assert.deepEqual(files.map((f) => f.slice(dist.length + 1)), ['async.json', 'doctor.json', 'flame.json', 'heap.json'])
  for (const file of files) {
    const bundle = JSON.parse(readFileSync(file, 'utf8'))
    writeFileSync(file, JSON.stringify({ ...bundle, script: marker }))
  }
  return dist
}

test('a prebuilt bundle whose files are as they were is used as it is', () => {
  const dist = prebuilt('/* prebuilt */')
  assert.equal(viewerBundle('heap/main.js', { dist }).script, '/* prebuilt */')
})

test('a prebuilt bundle built from a file that changed since is bundled again from the sources, once per process', () => {
  const dist = prebuilt('/* stale */')
  const file = join(dist, 'async.json')
  const written = JSON.parse(readFileSync(file, 'utf8'))
  writeFileSync(file, JSON.stringify({ ...written, inputs: { ...written.inputs, 'viewer/async/report.js': 'another hash' } }))
  const bundle = viewerBundle('async/main.js', { dist })
  assert.notEqual(bundle.script, '/* stale */')
  assert.ok(bundle.script.includes('function startPage('))
  assert.equal(viewerBundle('async/main.js', { dist }), bundle, 'the same bundle, not built twice')
})

test('a file the bundle came from that is not there (a dependency installed elsewhere) does not make it stale', () => {
  const dist = prebuilt('/* prebuilt */')
  const file = join(dist, 'flame.json')
  const bundle = JSON.parse(readFileSync(file, 'utf8'))
  writeFileSync(file, JSON.stringify({ ...bundle, inputs: { ...bundle.inputs, 'node_modules/gone/index.js': 'a hash' } }))
  assert.equal(viewerBundle('flame/main.js', { dist }).script, '/* prebuilt */')
})
