/**
 * viewer/shared serves every report: a report of another kind (a table, as
 * `dyno heap` has) is built from it alone, without any report's modules.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { buildSync } from 'esbuild'
import ts from 'typescript'
import { reportFile, reportViewerForTests } from '../helpers/browser.js'
import { headerFacts, textOf } from '../helpers/report-page.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const shared = join(root, 'viewer', 'shared')
const files = readdirSync(shared).filter((file) => file.endsWith('.js')).sort()

/** The modules a file imports, its types' included, resolved to paths under dyno's root. @param {string} file */
const importsOf = (file) => ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles
  .map((f) => f.fileName.startsWith('.') ? relative(root, resolve(dirname(file), f.fileName)) : f.fileName)

test('the viewer\'s modules import only viewer modules, lib/format.js (which imports nothing) and uPlot', () => {
  const viewerFiles = readdirSync(join(root, 'viewer'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js') && !f.startsWith('dist'))
  assert.ok(viewerFiles.length > 30, 'the walk found the viewer')
  const foreign = viewerFiles.flatMap((file) => importsOf(join(root, 'viewer', file))
    .filter((path) => !path.startsWith('viewer/') && path !== join('lib', 'format.js') && !path.startsWith('uplot') && !path.startsWith(join('lib', 'cpu-profile', 'flame-data.js')))
    .map((path) => `viewer/${file} imports ${path}`))
  assert.deepEqual(foreign, [])
  assert.deepEqual(importsOf(join(root, 'lib', 'format.js')), [], 'lib/format.js runs in the browser too')
})

test('the shared modules import only shared modules and lib/format.js', () => {
  assert.ok(files.includes('state.js') && files.includes('start.js'))
  for (const file of files) {
    const foreign = importsOf(join(shared, file)).filter((path) => !path.startsWith(join('viewer', 'shared') + '/') && path !== join('lib', 'format.js'))
    assert.deepEqual(foreign, [], `${file} imports nothing of a report's`)
  }
})

/** A report of function sizes with a sort, a header and a theme, from viewer/shared alone. */
const TABLE_REPORT = `
import { createStore } from './state.js'
import { applyTheme, preferredTheme, themeActions } from './theme.js'
import { renderHeader, runFacts } from './header.js'
import { createTooltip } from './tooltip.js'
import { formatCount } from './format.js'
import { startPage } from './start.js'

function startReport () {
  const $ = (id) => document.getElementById(id)
  const sizes = [['Buffer', 4096], ['Array', 512], ['Map', 1024]]
  const store = createStore({ sortBy: 'name', theme: preferredTheme() }, {
    ...themeActions,
    sort: (state, key) => ({ sortBy: key })
  })
  store.view(['sortBy'], (state) => {
    const rows = [...sizes].sort(state.sortBy === 'name' ? (a, b) => a[0].localeCompare(b[0]) : (a, b) => b[1] - a[1])
    $('rows').replaceChildren(...rows.map(([name, size]) => { const li = document.createElement('li'); li.textContent = name + ' ' + formatCount(size); return li }))
  })
  store.view(['theme'], (state) => applyTheme(state.theme, $('theme')))
  $('theme').addEventListener('click', () => store.actions.toggleTheme())
  const tooltip = createTooltip($('tooltip'))
  $('rows').addEventListener('mousemove', (event) => tooltip.show(event.clientX, event.clientY, { title: event.target.textContent, where: '', rows: [['kind', 'object']] }))
  const run = { title: 'node <heap>.js', startedAt: '2025-03-14T09:26:53Z', durationMs: 2500, node: 'v24.1.0', v8: null, exit: { how: 'exited', code: 0, signal: null } }
  renderHeader({ title: $('title'), facts: $('facts') }, 'dyno heap', run.title, runFacts(run, [['snapshots', '2']]))
  store.start()
  return { dynoTable: { sort: store.actions.sort } }
}

startPage(startReport)
`

/** The table report bundled as a report's main module is, from a module beside the shared ones. */
const script = buildSync({ stdin: { contents: TABLE_REPORT, resolveDir: shared, sourcefile: 'table-report.js' }, bundle: true, format: 'iife', write: false, logLevel: 'silent' }).outputFiles[0].text

const page = `<!doctype html><html><head><meta charset="utf-8"><title></title></head><body>
<h1 id="title"></h1><dl id="facts"></dl><button id="theme" type="button"></button><p id="notice" hidden></p>
<ul id="rows"></ul><div id="tooltip" hidden></div>
<script>${script}</script>
</body></html>`

const viewer = reportViewerForTests()

test('a table report runs on the shared modules alone: state, header, theme, tooltip', () => viewer.check(reportFile(page), async (page) => {
  assert.equal(await page.getAttribute('body', 'data-ready'), 'true')
  assert.equal(await page.title(), 'node <heap>.js · dyno heap')
  assert.equal(await textOf(page, '#title'), 'node <heap>.js')
  const facts = await headerFacts(page)
  assert.deepEqual(facts.slice(1), ['duration 2.5 s', 'snapshots 2', 'Node.js v24.1.0', 'app exited (code 0)'])
  const rows = () => page.$$eval('#rows li', (items) => items.map((item) => item.textContent))
  assert.deepEqual(await rows(), ['Array 512', 'Buffer 4,096', 'Map 1,024'])
  await page.evaluate(() => /** @type {any} */ (window).dynoTable.sort('size'))
  assert.deepEqual(await rows(), ['Buffer 4,096', 'Map 1,024', 'Array 512'])
  await page.click('#theme')
  assert.equal(await page.getAttribute('body', 'class'), 'theme-light')
  assert.equal(await textOf(page, '#theme'), 'Dark theme')
  await page.hover('#rows li')
  assert.equal(await textOf(page, '#tooltip'), 'Buffer 4,096kindobject')
}))
