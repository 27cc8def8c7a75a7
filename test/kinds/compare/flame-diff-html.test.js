import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { pathToFileURL } from 'node:url'
import { writeFlameDiff } from '../../../lib/kinds/compare/flame-diff-command.js'
import { assertNothingRan, reportViewerForTests, watchViolations } from '../../helpers/browser.js'
import { hoverFrame, textOf } from '../../helpers/report-page.js'
import { recordedTwoVersions, renameFunction } from '../../helpers/two-versions.js'

const viewer = reportViewerForTests({}, watchViolations)
const HOSTILE_NAME = '</script><img src=x onerror=alert(1)>'

// `steady` does the same work in both versions; here V8 called it something hostile.
const versions = recordedTwoVersions()
for (const side of [versions.before, versions.after]) side.profile = renameFunction(side.profile, 'steady', HOSTILE_NAME)
const folder = mkdtempSync(join(tmpdir(), 'dyno-flame-diff-run-'))
const written = writeFlameDiff(folder, versions, { title: 'node server.js' })

/**
 * What the report says of the frames running `name`.
 * @param {import('playwright-core').Page} page @param {string} name
 */
function changesOf (page, name) {
  return page.evaluate((name) => {
    const api = /** @type {any} */ (window).dynoFlame
    return api.nodesNamed(name).map((/** @type {number} */ node) => api.changeOf(node))
  }, name)
}

/**
 * The change of burn's own stack. A sample taken while its caller's frame is set up now and then
 * adds a sliver of burn on another stack (see test/helpers/two-versions.js).
 * @param {any[]} changes
 */
function mainChange (changes) {
  return changes.reduce((best, change) => change.before + change.after > best.before + best.after ? change : best)
}

test('the run folder holds the report and the functions\' changes', () => {
  assert.equal(written.html, join(folder, 'flame-diff.html'))
  assert.deepEqual(JSON.parse(readFileSync(written.json, 'utf8')), written.diff)
  assert.equal(written.diff.functions[0].name, 'burn')
})

test('the differential opens coloured by change, and the hot function shrank', async () => {
  await viewer.check(pathToFileURL(written.html).href, async (page) => {
    assert.equal(await page.getAttribute('body', 'data-ready'), 'true')
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).dynoFlame.state().colorBy), 'diff')
    assert.equal(await page.inputValue('#color-by'), 'diff')
    assert.match(await textOf(page, '#legend'), /^shrankabout the samegrew/)

    const burn = mainChange(await changesOf(page, 'burn'))
    assert.equal(burn.kind, 'shrank')
    assert.ok(burn.after < burn.before)
    assert.match(burn.color, /^hsl\(2\d\d/, 'a blue')
    const tooltip = await hoverFrame(page, 'burn')
    assert.match(tooltip, /self, before → after[\d.]+ ms → [\d.]+ ms per request \(\u2212[\d.]+ ms\)/)

    const firstRow = await page.$$eval('#changes tbody tr:first-child td', (cells) => cells.map((cell) => (cell.textContent ?? '').replace(/[\u2066\u2069]/g, '')))
    assert.equal(firstRow[0], 'burn')
    assert.match(firstRow[3], /^\u2212[\d.]+ ms$/)
    assert.equal(await page.getAttribute('#changes tbody tr:first-child', 'data-kind'), 'shrank')

    // Node.js core hidden: its frames merge into their callers, and the before side with them.
    await page.click('#filters input[data-filter="core"]')
    assert.deepEqual(mainChange(await changesOf(page, 'burn')), burn)

    // The other colours stay a choice, and the differential comes back.
    await page.selectOption('#color-by', 'heat')
    assert.ok((await changesOf(page, 'burn')).every((/** @type {unknown} */ change) => change === null))
    await page.click('#view-inverted')
    await page.selectOption('#color-by', 'diff')
    const [inverted] = await changesOf(page, 'burn')
    assert.equal(inverted.kind, 'shrank', 'burn at the top of the inverted tree shrank too')
  })
})

test('a hostile function name shows as text, and nothing runs', async () => {
  const page = await viewer.open(pathToFileURL(written.html).href)
  const names = await page.$$eval('#changes tbody td.name', (cells) => cells.map((cell) => cell.textContent))
  assert.ok(names.includes(HOSTILE_NAME), names.join(' | '))
  // One frame or more: V8 may give one function more than one stack (Node 26 does here).
  assert.ok((await changesOf(page, HOSTILE_NAME)).length >= 1)
  const tooltip = await hoverFrame(page, HOSTILE_NAME)
  assert.ok(tooltip.startsWith(HOSTILE_NAME), tooltip)
  await assertNothingRan(page, viewer.problems, 3)
})
