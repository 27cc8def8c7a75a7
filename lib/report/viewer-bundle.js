/**
 * A report's browser code as one script and one style sheet, for
 * html-page.js to inline: `viewer/<report>/main.js` with every module it
 * imports (viewer/shared/, lib/format.js, uPlot), bundled by esbuild, and
 * the CSS those modules import.
 *
 * esbuild is a devDependency, so dyno installed from npm has none: the
 * package carries the bundles, written to viewer/dist/ by `npm pack`
 * (scripts/build-viewer.js). A git clone needs no step of its own: a bundle
 * in viewer/dist/ is used while every file it was built from that is there
 * is as it was (by its hash: an install's files have the time they were
 * unpacked, in any order), and otherwise esbuild bundles the sources on
 * first use, once per process.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** dyno's root, which the bundles' inputs are relative to. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const VIEWER = join(ROOT, 'viewer')
/** Where `npm pack` writes the bundles that the package ships. */
export const VIEWER_DIST = join(VIEWER, 'dist')

/**
 * @typedef {object} ViewerBundle
 * @property {string} script the bundled modules, one classic script
 * @property {string} style the CSS they import, in their order
 * @property {Record<string, string>} inputs the files it was built from, relative to dyno's root, each with the hash of its content
 */

/** @type {Map<string, ViewerBundle>} */
const built = new Map()

/**
 * The bundle of a report's entry module: the one in `dist` while it is as
 * new as its sources, else bundled now (once per process and entry).
 * @param {string} entry the report's main module, under viewer/: `heap/main.js`
 * @param {{ dist?: string }} [options] where prebuilt bundles are; viewer/dist/
 * @returns {ViewerBundle}
 */
export function viewerBundle (entry, { dist = VIEWER_DIST } = {}) {
  const key = `${dist}\0${entry}`
  let bundle = built.get(key)
  if (!bundle) {
    bundle = freshBundle(entry, dist)
    built.set(key, bundle)
  }
  return bundle
}

/** @param {string} entry @param {string} dist @returns {ViewerBundle} */
function freshBundle (entry, dist) {
  const file = join(dist, bundleName(entry))
  const prebuilt = readPrebuilt(file)
  if (prebuilt && !changedInput(prebuilt)) return prebuilt
  const esbuild = loadEsbuild()
  if (esbuild) return bundleViewer(entry, esbuild)
  // Sources changed where esbuild is missing (an installed package someone edited): the bundle it came with.
  if (prebuilt) return prebuilt
  throw new Error(`dyno's report viewer is not built: ${file} is missing, and esbuild (a devDependency) is not installed to bundle viewer/${entry}. In a git clone of dyno, run npm ci`)
}

/** `viewer/dist/heap.json` holds the bundle of `heap/main.js`. @param {string} entry */
function bundleName (entry) {
  return `${basename(dirname(entry))}.json`
}

/** @param {string} file @returns {ViewerBundle | null} */
function readPrebuilt (file) {
  let text
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return null
    throw error
  }
  return JSON.parse(text)
}

/**
 * Whether a file the bundle was built from is not as it was then. A file
 * that is not there (a dependency installed elsewhere) does not count.
 * @param {ViewerBundle} bundle
 */
function changedInput (bundle) {
  return Object.entries(bundle.inputs).some(([input, hash]) => {
    const now = fileHash(input)
    return now !== null && now !== hash
  })
}

/** @param {string} input relative to dyno's root @returns {string | null} */
function fileHash (input) {
  let content
  try {
    content = readFileSync(resolve(ROOT, input))
  } catch {
    return null
  }
  return createHash('sha256').update(content).digest('base64')
}

/** @returns {typeof import('esbuild') | null} */
function loadEsbuild () {
  try {
    return createRequire(import.meta.url)('esbuild')
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'MODULE_NOT_FOUND') return null
    throw error
  }
}

/**
 * Bundles a report's entry module with esbuild: one classic script that runs
 * its modules in order, strict as modules are ("use strict" heads it), and
 * the CSS they import.
 * @param {string} entry under viewer/
 * @param {typeof import('esbuild')} [esbuild]
 * @returns {ViewerBundle}
 */
export function bundleViewer (entry, esbuild = loadEsbuild() ?? undefined) {
  if (!esbuild) throw new Error('bundling the report viewer takes esbuild, a devDependency of dyno: run npm ci')
  const result = esbuild.buildSync({
    absWorkingDir: ROOT,
    entryPoints: [join('viewer', entry)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    charset: 'utf8',
    // Nothing is written: the outputs' paths only tell the script from the style.
    write: false,
    outdir: 'bundle',
    metafile: true,
    logLevel: 'silent'
  })
  const output = (/** @type {string} */ ext) => result.outputFiles.find((f) => f.path.endsWith(ext))?.text ?? ''
  /** @type {Record<string, string>} */
  const inputs = {}
  for (const input of Object.keys(result.metafile.inputs).sort()) inputs[input] = fileHash(input) ?? ''
  return { script: output('.js'), style: output('.css'), inputs }
}

/** Every report's entry module: `viewer/<report>/main.js`. */
export function viewerEntries () {
  return readdirSync(VIEWER, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'dist' && readdirSync(join(VIEWER, d.name)).includes('main.js'))
    .map((d) => `${d.name}/main.js`)
    .sort()
}

/**
 * Bundles every report into `dist`, each file written whole (a temporary
 * name, then renamed), for the package to ship.
 * @param {string} [dist]
 * @returns {string[]} the files written
 */
export function writeViewerBundles (dist = VIEWER_DIST) {
  mkdirSync(dist, { recursive: true })
  return viewerEntries().map((entry) => {
    const file = join(dist, bundleName(entry))
    writeFileSync(`${file}.tmp`, JSON.stringify(bundleViewer(entry)) + '\n')
    renameSync(`${file}.tmp`, file)
    return file
  })
}
