import assert from 'node:assert/strict'
import { test } from 'node:test'
import { renderFlameHtml } from '../../../lib/kinds/flame/html.js'
import { reportFile, reportViewerForTests } from '../../helpers/browser.js'
import { flameDataFromTree } from '../../helpers/flame-builder.js'
import { shopProfile } from '../../helpers/flame-fixtures.js'
import { frameRect } from '../../helpers/report-page.js'

const WINDOW = { width: 1280, height: 900 }
const viewer = reportViewerForTests(WINDOW)

/**
 * A call chain `depth` deep (call1 calls call2 …), beside one shallow call.
 * @param {number} depth
 */
function deepProfile (depth) {
  /** @type {import('../../helpers/flame-builder.js').TreeSpec} */
  let chain = { name: `call${depth}`, file: '/srv/app/deep.js', line: depth, self: 10 }
  for (let d = depth - 1; d >= 1; d--) chain = { name: `call${d}`, file: '/srv/app/deep.js', line: d, self: 1, children: [chain] }
  return flameDataFromTree([chain, { name: 'shallow', file: '/srv/app/deep.js', line: 999, self: 50 }])
}

/**
 * The flamegraph's box, and the depth of the tree it shows.
 * @param {import('playwright-core').Page} page
 */
function flameBox (page) {
  return page.evaluate(() => {
    const box = /** @type {HTMLElement} */ (document.getElementById('flame-scroll'))
    const rect = box.getBoundingClientRect()
    const canvas = document.getElementById('flame')?.getBoundingClientRect()
    return {
      top: rect.top,
      bottom: rect.bottom,
      inside: box.clientHeight,
      scrolls: box.scrollHeight,
      canvas: canvas?.height ?? 0,
      maxDepth: /** @type {any} */ (window).dynoFlame.tree().maxDepth
    }
  })
}

/**
 * Where the root is drawn; its height is a row's.
 * @param {import('playwright-core').Page} page
 */
async function rootRect (page) {
  const rect = await page.evaluate(() => /** @type {any} */ (window).dynoFlame.frameRect(0))
  assert.ok(rect, 'the root is in view')
  return /** @type {{ x: number, y: number, width: number, height: number }} */ (rect)
}

/** @param {import('playwright-core').Page} page @param {string} name */
const isDrawn = (page, name) => page.evaluate((name) => {
  const api = /** @type {any} */ (window).dynoFlame
  return api.frameRect(api.nodesNamed(name)[0]) !== null
}, name)

test('a shallow profile gets a box as tall as its rows, all in view', () => viewer.check(reportFile(renderFlameHtml(shopProfile())), async (page) => {
  const root = await rootRect(page)
  const row = root.height
  const box = await flameBox(page)
  assert.equal(box.maxDepth, 5)
  const rows = (box.maxDepth + 1) * row
  assert.ok(box.inside >= rows && box.inside < rows + row, `${box.inside} px inside the box for ${box.maxDepth + 1} rows of ${row} px`)
  assert.equal(box.canvas, box.inside, 'the canvas fills the box')
  assert.equal(box.scrolls, box.inside, 'nothing to scroll')
  const deepest = await frameRect(page, 'walk', 2)
  assert.ok(root.y + root.height <= box.bottom && deepest.y >= box.top, 'the root and the deepest call are both in view')

  await page.uncheck('[data-filter="app"]')
  const shallower = await flameBox(page)
  assert.equal(shallower.maxDepth, 2, 'writeHead › writev is the deepest stack without app code')
  assert.ok(shallower.inside >= (shallower.maxDepth + 1) * row && shallower.inside < (shallower.maxDepth + 2) * row, 'the box follows the tree in view')
}))

test('a deep profile scrolls in a box of at most 62% of the window, the root in view first', () => viewer.check(reportFile(renderFlameHtml(deepProfile(120))), async (page) => {
  const box = await flameBox(page)
  assert.equal(box.maxDepth, 120)
  const root = await rootRect(page)
  assert.ok(box.bottom - box.top <= WINDOW.height * 0.62 + 1, `the box (${box.bottom - box.top} px) is capped`)
  assert.ok(box.scrolls >= (box.maxDepth + 1) * root.height, `it scrolls over every row: ${box.scrolls} px`)
  assert.ok(root.y + root.height <= box.bottom, 'the root is in view, at the bottom')
  assert.equal(await isDrawn(page, 'call120'), false, 'the deepest call is above, out of view')

  await page.$eval('#flame-scroll', (element) => { element.scrollTop = 0 })
  await page.waitForFunction(() => {
    const api = /** @type {any} */ (window).dynoFlame
    return api.frameRect(api.nodesNamed('call120')[0]) !== null
  })
  assert.ok((await frameRect(page, 'call120')).y >= box.top, 'scrolled to the top, the deepest call shows')

  await page.setViewportSize({ width: WINDOW.width, height: 500 })
  await page.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('flame-scroll')).getBoundingClientRect().height <= 500 * 0.62 + 1)
  const smaller = await flameBox(page)
  assert.equal(smaller.canvas, smaller.inside, 'the canvas follows the box')
  await page.setViewportSize(WINDOW)
}))
