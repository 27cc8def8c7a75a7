/**
 * report.html in a real Chromium: offline, every string of the app's heap
 * shown as text, the comparison sortable by every column, a constructor
 * opening onto its objects and paths, search by name.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { test } from 'node:test'
import { runHeapDiff } from '../../../lib/kinds/heap/diff-command.js'
import { reportViewerForTests } from '../../helpers/browser.js'
import { takeSnapshots, tempDir } from '../../helpers/heap-snapshots.js'
import { textOf } from '../../helpers/report-page.js'

const HOSTILE = '</script><img src=x onerror=alert(1)>'

const [before, after] = takeSnapshots(`
class Hostile { constructor (i) { this.label = '<b>' + i + '</b>' } }
globalThis.store = {}
snapshot()
for (let i = 0; i < 300; i++) store[${JSON.stringify(HOSTILE)} + i] = new Hostile(i)
snapshot()
`)
const out = tempDir('dyno-heap-report-')
const { result } = await runHeapDiff({ files: [before, after], out }, { cwd: out, env: process.env })
const url = pathToFileURL(join(result.folder, 'report.html')).href
const viewer = reportViewerForTests()

test('the report is one file with a strict CSP, and names the leak', () => viewer.check(url, async (page) => {
  const html = readFileSync(join(result.folder, 'report.html'), 'utf8')
  assert.match(html, /Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'/)
  assert.doesNotMatch(html, /<img/)
  assert.equal(await page.getAttribute('body', 'data-ready'), 'true')
  assert.match(await textOf(page, '.leak-line'), /^`Hostile` \+300 objects \(\+[\d.]+ kB retained\) held by `store` properties$/)
  assert.equal(await page.evaluate(() => document.querySelectorAll('img').length), 0)
}))

test('every column sorts, both ways', () => viewer.check(url, async (page) => {
  const firstColumn = () => page.$$eval('#comparison tr.row', (rows) => rows.map((row) => /** @type {HTMLTableRowElement} */ (row).cells[0].textContent))
  const column = (/** @type {number} */ i) => page.$$eval('#comparison tr.row', (rows, i) => rows.map((row) => /** @type {HTMLTableRowElement} */ (row).cells[i].textContent), i)
  const number = (/** @type {string | null} */ text) => Number(String(text).replace(/[+,]/g, '').replace(/ (B|kB|MB)$/, ''))
  const sorts = ['name', 'newCount', 'deletedCount', 'countDelta', 'allocSize', 'freedSize', 'sizeDelta', 'retainedDelta']
  for (const [i, key] of sorts.entries()) {
    await page.click(`#comparison th button[data-sort="${key}"]`)
    const first = await page.getAttribute(`#comparison th button[data-sort="${key}"]`, 'aria-sort')
    const values = await column(i)
    if (key === 'name') {
      assert.equal(first, 'ascending')
      assert.deepEqual(values, [...values].sort((a, b) => String(a).localeCompare(String(b))))
    } else if (!/B$/.test(String(values[0]))) {
      assert.equal(first, 'descending')
      const numbers = values.map(number)
      assert.deepEqual(numbers, [...numbers].sort((a, b) => b - a), key)
    }
    await page.click(`#comparison th button[data-sort="${key}"]`)
    assert.notEqual(await page.getAttribute(`#comparison th button[data-sort="${key}"]`, 'aria-sort'), first)
  }
  assert.ok((await firstColumn()).length > 10)
}))

test('search narrows the table; a constructor opens onto its paths and objects, its strings as text', () => viewer.check(url, async (page) => {
  await page.fill('#search', 'hostile')
  assert.deepEqual(await page.$$eval('#comparison tr.row td.name', (cells) => cells.map((c) => c.textContent)), ['Hostile'])
  assert.match(await textOf(page, '#shown'), /^1 of [\d,]+ constructors$/)
  await page.click('#comparison tr.row')
  const details = await textOf(page, '#comparison tr.details')
  assert.match(details, /300 held by `store` properties/)
  assert.ok(details.includes('.' + HOSTILE), 'the property name is shown as it is')
  assert.match(details, /Sample objects/)
  assert.equal(await page.evaluate(() => document.querySelectorAll('img').length), 0)
  await page.click('#comparison tr.row')
  assert.equal(await page.$('#comparison tr.details'), null)
}))
