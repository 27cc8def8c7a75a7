/**
 * Reading a flamegraph report in a real browser: where a frame is drawn (from
 * the report's own `window.dynoFlame` API), the pixels the canvas holds, the
 * text the page shows.
 */
import assert from 'node:assert/strict'

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {{ x: number, y: number, width: number, height: number }} Rect */

/**
 * Where the `index`th node running function `name` is drawn, in page pixels.
 * @param {Page} page @param {string} name @param {number} [index]
 * @returns {Promise<Rect>}
 */
export async function frameRect (page, name, index = 0) {
  const rect = await page.evaluate(([name, index]) => {
    const api = /** @type {any} */ (window).dynoFlame
    const node = api.nodesNamed(name)[index]
    return node === undefined ? null : api.frameRect(node)
  }, /** @type {const} */ ([name, index]))
  assert.ok(rect, `${name} is drawn`)
  return rect
}

/** @param {Page} page @param {string} name @param {number} [index] */
export async function clickFrame (page, name, index = 0) {
  const rect = await frameRect(page, name, index)
  await page.mouse.click(rect.x + rect.width / 2, rect.y + rect.height / 2)
}

/** @param {Page} page @param {string} name @param {number} [index] */
export async function hoverFrame (page, name, index = 0) {
  const rect = await frameRect(page, name, index)
  await page.mouse.move(rect.x + rect.width - 3, rect.y + rect.height / 2)
  await page.waitForSelector('#tooltip:not([hidden])')
  return (await page.textContent('#tooltip')) ?? ''
}

/**
 * The canvas pixel at page point (x, y), as [r, g, b].
 * @param {Page} page @param {number} x @param {number} y
 */
export function pixelAt (page, x, y) {
  return page.evaluate(([x, y]) => {
    const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('flame'))
    const box = canvas.getBoundingClientRect()
    const ratio = canvas.width / box.width
    const [r, g, b] = canvas.getContext('2d')?.getImageData(Math.floor((x - box.left) * ratio), Math.floor((y - box.top) * ratio), 1, 1).data ?? []
    return [r, g, b]
  }, [x, y])
}

/**
 * The colour a frame is filled with: sampled near its right end, away from its label.
 * @param {Page} page @param {string} name @param {number} [index]
 */
export async function frameColor (page, name, index = 0) {
  const rect = await frameRect(page, name, index)
  return pixelAt(page, rect.x + rect.width - 3, rect.y + rect.height - 3)
}

/** @param {Page} page @param {string} selector */
export async function textOf (page, selector) {
  return (await page.textContent(selector))?.replace(/\s+/g, ' ').trim() ?? ''
}

/** @param {Page} page @returns {Promise<string>} the zoom path, as "all › main › handleRequest" */
export async function breadcrumbs (page) {
  return (await page.$$eval('#breadcrumbs > *', (items) => items.map((item) => item.textContent))).join(' ')
}

/** @param {Page} page @returns {Promise<string[]>} the header's facts, as "term value" */
export function headerFacts (page) {
  return page.$$eval('#facts > div', (rows) => rows.map((row) => `${row.querySelector('dt')?.textContent} ${row.querySelector('dd')?.textContent}`))
}

/** @param {Page} page @returns {Promise<string[][]>} the functions table, row by row */
export function tableRows (page) {
  return page.$$eval('#functions tbody tr', (rows) => rows.map((row) => Array.from(/** @type {HTMLTableRowElement} */ (row).cells, (cell) => (cell.textContent ?? '').replace(/[\u2066\u2069]/g, '').trim())))
}

/** @param {Page} page @param {string} query */
export async function search (page, query) {
  await page.fill('#search', query)
}

/**
 * `hsl(h s% l%)` as the [r, g, b] a canvas stores.
 * @param {number} h @param {number} s @param {number} l
 */
export function hslToRgb (h, s, l) {
  s /= 100
  l /= 100
  const k = (/** @type {number} */ n) => (n + h / 30) % 12
  const a = s * Math.min(l, 1 - l)
  const f = (/** @type {number} */ n) => Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)))))
  return [f(0), f(8), f(4)]
}
