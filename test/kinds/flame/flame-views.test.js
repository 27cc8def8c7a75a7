import assert from 'node:assert/strict'
import { test } from 'node:test'
import { renderFlameHtml } from '../../../lib/kinds/flame/html.js'
import { reportFile, reportViewerForTests } from '../../helpers/browser.js'
import { shopProfile } from '../../helpers/flame-fixtures.js'
import { breadcrumbs, clickFrame, frameColor, frameRect, hoverFrame, hslToRgb, pixelAt, search, tableRows, textOf } from '../../helpers/report-page.js'

const DIM_DARK = [0x2f, 0x33, 0x3b]

const viewer = reportViewerForTests()
const url = reportFile(renderFlameHtml(shopProfile()))

/** Opens a report (the shop's unless told), runs `check` on it, then asserts the page logged no error. */
const withReport = (/** @type {(page: import('playwright-core').Page) => Promise<void>} */ check, target = url) => viewer.check(target, check)

/** @param {import('playwright-core').Page} page */
const canvasWidth = (page) => page.$eval('#flame', (canvas) => canvas.getBoundingClientRect().width)
/** @param {number[]} actual @param {number[]} expected */
const near = (actual, expected) => actual.every((c, i) => Math.abs(c - expected[i]) <= 2)

test('the inverted view puts the functions on top of the stack first, their callers below', () => withReport(async (page) => {
  await page.click('#view-inverted')
  assert.equal(await page.getAttribute('#view-inverted', 'aria-pressed'), 'true')
  const tops = await page.evaluate(() => {
    const tree = /** @type {any} */ (window).dynoFlame.tree()
    const totals = []
    for (let c = 1; c < tree.count; c = tree.end[c]) totals.push(tree.total[c])
    return totals
  })
  assert.deepEqual(tops, [30, 20, 20, 10, 10, 5, 5], 'parse, walk, writev, handleRequest, (garbage collector), main, writeHead')
  const [walk, walkCaller] = [await frameRect(page, 'walk', 0), await frameRect(page, 'walk', 1)]
  assert.ok(walkCaller.y > walk.y, 'callers hang below')
  assert.ok((await hoverFrame(page, 'walk')).includes('top of stack20.0% (20 samples)'))
  const walkFromHandler = await page.evaluate(() => {
    const api = /** @type {any} */ (window).dynoFlame
    const topWalk = api.nodesNamed('walk')[0]
    return api.nodesNamed('handleRequest').findIndex((/** @type {number} */ node) => api.tree().parent[node] === topWalk)
  })
  assert.ok((await hoverFrame(page, 'handleRequest', walkFromHandler)).includes('with these callers5.00% (5 samples)'))

  await clickFrame(page, 'walk', 1)
  assert.equal(await breadcrumbs(page), 'all › walk › walk')
  const width = await canvasWidth(page)
  assert.ok((await frameRect(page, 'walk', 1)).width >= width - 1, 'the zoomed frame fills the width')
  const caller = await page.evaluate(() => {
    const api = /** @type {any} */ (window).dynoFlame
    const tree = api.tree()
    const zoom = api.state().zoom
    return tree.total[zoom + 1] / tree.total[zoom]
  })
  assert.equal(caller, 10 / 15, 'walk ← walk: 10 of its 15 samples came through handleRequest')
  await search(page, 'walk')
  assert.match(await textOf(page, '#search-share'), /^matches: 20\.0% of samples \(20\)/)
  await page.click('#view-flame')
  assert.equal(await breadcrumbs(page), 'all')
}))

test('the functions table sorts by self, total and name; totals count recursion once', () => withReport(async (page) => {
  let rows = await tableRows(page)
  assert.deepEqual(rows[0].slice(0, 3), ['30.0% 30', '30.0% 30', 'parse'])
  const walk = rows.find((row) => row[2] === 'walk')
  assert.deepEqual(walk, ['20.0% 20', '20.0% 20', 'walk', '/srv/shop/tree.js:1:8', 'app', 'interpreted'])
  await page.click('button[data-sort="total"]')
  rows = await tableRows(page)
  assert.deepEqual(rows.map((row) => row[2]), ['main', 'handleRequest', 'parse', 'writeHead', 'walk', 'writev', '(garbage collector)'])
  await page.click('button[data-sort="total"]')
  assert.equal((await tableRows(page))[0][2], '(garbage collector)', 'a second click reverses the order')
  await page.click('button[data-sort="name"]')
  assert.deepEqual((await tableRows(page)).map((row) => row[2]), ['(garbage collector)', 'handleRequest', 'main', 'parse', 'walk', 'writeHead', 'writev'])
  await search(page, 'WRITE')
  assert.deepEqual((await tableRows(page)).map((row) => row[2]), ['writeHead', 'writev'])
  assert.equal(await textOf(page, '#functions-count'), '2 matching functions')
}))

test('hiding a category merges its samples into the caller; totals stay', () => withReport(async (page) => {
  await clickFrame(page, 'handleRequest')
  await page.uncheck('[data-filter="deps"]')
  assert.equal(await breadcrumbs(page), 'all › main › handleRequest', 'the zoom stays')
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).dynoFlame.nodesNamed('parse').length), 0)
  let rows = await tableRows(page)
  assert.deepEqual(rows.find((row) => row[2] === 'handleRequest')?.slice(0, 2), ['40.0% 40', '60.0% 60'])
  assert.ok(!rows.some((row) => row[2] === 'parse'))
  await page.uncheck('[data-filter="native"]')
  await page.uncheck('[data-filter="gc"]')
  rows = await tableRows(page)
  assert.deepEqual(rows.find((row) => row[2] === 'writeHead')?.slice(0, 2), ['25.0% 25', '25.0% 25'])
  assert.ok(!rows.some((row) => row[2] === '(garbage collector)' || row[2] === 'writev'))
  await page.keyboard.press('Escape')
  assert.ok(Math.abs((await frameRect(page, 'main')).width - 0.9 * await canvasWidth(page)) < 1, 'main is still 90 of 100 samples')

  await page.uncheck('[data-filter="app"]')
  await page.check('[data-filter="deps"]')
  rows = await tableRows(page)
  assert.deepEqual(rows.map((row) => row[2]), ['parse', 'writeHead'], 'without app code, its callees hang from the root')
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).dynoFlame.tree().depth[/** @type {any} */ (window).dynoFlame.nodesNamed('parse')[0]]), 1)
}))

test('dark and light themes', () => withReport(async (page) => {
  const box = await page.$eval('#flame', (canvas) => { const r = canvas.getBoundingClientRect(); return { x: r.x, y: r.y } })
  assert.equal(await page.getAttribute('body', 'class'), 'theme-dark')
  assert.deepEqual(await pixelAt(page, box.x + 1, box.y + 1), [0x15, 0x17, 0x1c])
  await page.click('#theme')
  assert.equal(await page.getAttribute('body', 'class'), 'theme-light')
  assert.deepEqual(await pixelAt(page, box.x + 1, box.y + 1), [255, 255, 255])
  assert.equal(await textOf(page, '#theme'), 'Dark theme')
  const background = await page.$eval('body', (body) => window.getComputedStyle(body).backgroundColor)
  assert.equal(background, 'rgb(255, 255, 255)')
  await page.emulateMedia({ colorScheme: 'light' })
  await viewer.open(url)
  assert.equal(await page.getAttribute('body', 'class'), 'theme-light', 'the system preference picks the first theme')
  await page.emulateMedia({ colorScheme: 'dark' })
}))

test('optimized and unoptimized code can be highlighted and coloured by tier', () => withReport(async (page) => {
  await page.click('#highlight-optimized')
  assert.equal(await textOf(page, '#search-share'), 'optimized code on top of the stack: 45.0% of samples (45)')
  assert.notDeepEqual(await frameColor(page, 'main'), DIM_DARK)
  assert.notDeepEqual(await frameColor(page, 'parse'), DIM_DARK)
  assert.deepEqual(await frameColor(page, 'walk'), DIM_DARK)
  await page.click('#highlight-unoptimized')
  assert.equal(await textOf(page, '#search-share'), 'unoptimized code on top of the stack: 25.0% of samples (25)')
  assert.deepEqual(await frameColor(page, 'main'), DIM_DARK)
  assert.notDeepEqual(await frameColor(page, 'walk'), DIM_DARK)
  await page.click('#highlight-unoptimized')
  assert.equal(await textOf(page, '#search-share'), '')

  await page.selectOption('#color-by', 'tier')
  assert.ok(near(await frameColor(page, 'main'), hslToRgb(135, 55, 47)), 'Turbofan')
  assert.ok(near(await frameColor(page, 'handleRequest'), hslToRgb(168, 52, 52)), 'Maglev')
  assert.ok(near(await frameColor(page, 'writeHead'), hslToRgb(42, 92, 58)), 'Sparkplug')
  assert.ok(near(await frameColor(page, 'walk'), hslToRgb(8, 78, 60)), 'interpreted')
  assert.ok(near(await frameColor(page, 'parse'), hslToRgb(135, 55, 47)), 'inlined into optimized code')
  assert.match(await textOf(page, '#legend'), /Turbofan.*Maglev.*Sparkplug.*interpreted/)
}))

test('when the tiers are unknown the report says so and does not guess', () => withReport(async (page) => {
  assert.match(await textOf(page, '#notice'), /tiers are unknown/)
  assert.equal(await page.isDisabled('#highlight-optimized'), true)
  assert.equal(await page.isDisabled('#highlight-unoptimized'), true)
  assert.equal(await page.$eval('#color-by option[value="tier"]', (option) => /** @type {HTMLOptionElement} */ (option).disabled), true)
  assert.ok((await hoverFrame(page, 'main')).includes('unknown: this Node did not report tiers'))
  assert.equal((await tableRows(page)).find((row) => row[2] === 'main')?.[5], '')
}, reportFile(renderFlameHtml(shopProfile({ tiersKnown: false })))))

test('a function\'s source shows with the samples each line took', () => withReport(async (page) => {
  await page.click('#functions tbody tr:has-text("walk")')
  assert.equal(await textOf(page, '#source-title'), 'walk · /srv/shop/tree.js:1:8')
  assert.equal(await textOf(page, '#source-note'), '20 samples in this file (20.0% of all), by line')
  const lines = await page.$$eval('.source-line', (rows) => rows.map((row) => ({
    no: row.querySelector('.no')?.textContent,
    count: row.querySelector('.count')?.textContent,
    bar: /** @type {HTMLElement | null} */ (row.querySelector('.bar i'))?.style.width ?? '',
    code: row.querySelector('code')?.textContent,
    current: row.classList.contains('current')
  })))
  assert.equal(lines.length, 5)
  assert.deepEqual(lines[2], { no: '3', count: '14', bar: '100%', code: '  for (const child of node.children) sum += walk(child)', current: false })
  assert.equal(lines[1].count, '4')
  assert.equal(lines[0].current, true)
  assert.equal(await page.getAttribute('#functions tbody tr:has-text("walk")', 'aria-selected'), 'true')

  await clickFrame(page, 'handleRequest')
  assert.equal(await textOf(page, '#source-title'), 'handleRequest · /srv/shop/server.js:10:1')
  assert.equal(await page.textContent('.source-line.current .count'), '1')
  await page.keyboard.press('Escape')
  await clickFrame(page, 'writeHead')
  assert.match(await textOf(page, '#source-note'), /^Only the app's own files are embedded/)
  assert.equal(await page.$$eval('.source-line', (rows) => rows.length), 0)
  await page.keyboard.press('Escape')
  await clickFrame(page, 'writev')
  assert.match(await textOf(page, '#source-note'), /^Native code/)
}))
