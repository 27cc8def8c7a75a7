/**
 * viewer/shared serves every report: a report of another kind (a table, as
 * `dyno heap` will have) is built from it alone, without the flamegraph's
 * scripts.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { test } from 'node:test'
import { reportFile, reportViewerForTests } from '../helpers/browser.js'
import { headerFacts, textOf } from '../helpers/report-page.js'

const SHARED = new URL('../../viewer/shared/', import.meta.url)
const read = (/** @type {string} */ file) => readFileSync(new URL(file, SHARED), 'utf8')
const files = readdirSync(SHARED).filter((file) => file.endsWith('.js')).sort()

/** The names a script's `/* global *\/` or `/* exported *\/` comment lists. @param {string} text @param {string} word */
const listed = (text, word) => [...text.matchAll(new RegExp(`/\\* ${word} ([^*]+)\\*/`, 'g'))].flatMap((m) => m[1].split(',').map((name) => name.trim()))

test('the shared scripts use only what the shared scripts define', () => {
  const offered = new Set(files.flatMap((file) => listed(read(file), 'exported')))
  for (const file of files) {
    const foreign = listed(read(file), 'global').filter((name) => name !== 'startReport' && !offered.has(name))
    assert.deepEqual(foreign, [], `${file} uses nothing of the flamegraph's`)
  }
})

/** A report of function sizes with a sort, a header and a theme, from viewer/shared alone. */
const TABLE_REPORT = `
/* global createStore, themeActions, preferredTheme, applyTheme, renderHeader, runFacts, createTooltip, formatCount */
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
`

const page = `<!doctype html><html><head><meta charset="utf-8"><title></title></head><body>
<h1 id="title"></h1><dl id="facts"></dl><button id="theme" type="button"></button><p id="notice" hidden></p>
<ul id="rows"></ul><div id="tooltip" hidden></div>
<script>(function () {\n'use strict'\n${files.filter((file) => file !== 'main.js').map(read).join('\n')}\n${TABLE_REPORT}\n${read('main.js')}\n})()</script>
</body></html>`

const viewer = reportViewerForTests()

test('a table report runs on the shared scripts alone: state, header, theme, tooltip', () => viewer.check(reportFile(page), async (page) => {
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
