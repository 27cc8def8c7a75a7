import assert from 'node:assert/strict'
import { test } from 'node:test'
import { renderFlameHtml } from '../../../lib/kinds/flame/html.js'
import { reportFile, reportViewerForTests } from '../../helpers/browser.js'
import { shopProfile } from '../../helpers/flame-fixtures.js'
import { makeFlameData } from '../../helpers/flame-generator.js'
import { breadcrumbs, clickFrame, frameColor, frameRect, headerFacts, hoverFrame, pixelAt, search, tableRows, textOf } from '../../helpers/report-page.js'

const DIM_DARK = [0x2f, 0x33, 0x3b]

const viewer = reportViewerForTests()
const url = reportFile(renderFlameHtml(shopProfile()))

/** Opens a report (the shop's unless told), runs `check` on it, then asserts the page logged no error. */
const withReport = (/** @type {(page: import('playwright-core').Page) => Promise<void>} */ check, target = url) => viewer.check(target, check)

test('it draws the flamegraph and says what was profiled', () => withReport(async (page) => {
  assert.equal(await page.getAttribute('body', 'data-ready'), 'true')
  assert.equal(await page.title(), 'node server.js · dyno flame')
  assert.equal(await textOf(page, '#title'), 'node server.js')
  const facts = await headerFacts(page)
  for (const fact of ['duration 1 min 5 s', 'samples 100', 'interval 1.00 ms', 'Node.js v22.14.0 (V8 13.6.233.10-node.15)', 'app exited (code 0)', 'load 12,346 req/s, latency p50 3.20 ms, p99 17.8 ms, 2 errors, 12 non-2xx']) {
    assert.ok(facts.includes(fact), `header has "${fact}": ${facts.join(' | ')}`)
  }
  assert.match(facts[0], /^started 14 Mar 2025, \d\d:\d\d:53$/)
  const colors = await page.evaluate(() => {
    const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('flame'))
    const { data } = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d')).getImageData(0, 0, canvas.width, canvas.height)
    const seen = new Set()
    for (let i = 0; i < data.length; i += 4) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`)
    return seen.size
  })
  assert.ok(colors > 10, `the canvas holds frames in many colours (${colors})`)
  const main = await frameRect(page, 'main')
  const width = await page.$eval('#flame', (canvas) => canvas.getBoundingClientRect().width)
  assert.ok(Math.abs(main.width - width * 0.9) < 1, 'main is 90% wide: 90 of 100 samples')
  const [walk, parse] = [await frameColor(page, 'walk'), await frameColor(page, 'parse')]
  assert.ok(parse[1] < walk[1], 'parse (30 at the top of the stack) is hotter than walk (5)')
}))

test('clicking a frame zooms into it; a breadcrumb zooms back out', () => withReport(async (page) => {
  const width = await page.$eval('#flame', (canvas) => canvas.getBoundingClientRect().width)
  await clickFrame(page, 'handleRequest')
  assert.equal(await breadcrumbs(page), 'all › main › handleRequest')
  const zoomed = await frameRect(page, 'handleRequest')
  assert.ok(zoomed.width >= width - 1, 'the frame fills the width')
  assert.deepEqual(await pixelAt(page, zoomed.x + 3, zoomed.y + 9), await pixelAt(page, zoomed.x + zoomed.width - 4, zoomed.y + 9), 'one colour from edge to edge')
  assert.ok(Math.abs((await frameRect(page, 'parse')).width - width / 2) < 1, 'parse: 30 of handleRequest\'s 60 samples')
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).dynoFlame.frameRect(/** @type {any} */ (window).dynoFlame.nodesNamed('writeHead')[0])), null, 'outside the zoom, nothing is drawn')

  await page.click('#breadcrumbs button:has-text("all")')
  assert.equal(await breadcrumbs(page), 'all')
  assert.ok(Math.abs((await frameRect(page, 'main')).width - width * 0.9) < 1)
  await clickFrame(page, 'walk', 2)
  assert.equal(await breadcrumbs(page), 'all › main › handleRequest › walk › walk › walk')
  await page.keyboard.press('Escape')
  assert.equal(await breadcrumbs(page), 'all')
}))

test('search highlights matches and counts each sample once, however matches nest', () => withReport(async (page) => {
  await search(page, 'walk')
  assert.equal(await textOf(page, '#search-share'), 'matches: 20.0% of samples (20)')
  assert.notDeepEqual(await frameColor(page, 'walk', 2), DIM_DARK, 'a match keeps its colour')
  assert.deepEqual(await frameColor(page, 'main'), DIM_DARK, 'the rest is dimmed')

  await search(page, 'server')
  assert.equal(await textOf(page, '#search-share'), 'matches: 90.0% of samples (90)', 'main and handleRequest both match; their samples count once')
  await search(page, '/^w/')
  assert.equal(await textOf(page, '#search-share'), 'matches: 45.0% of samples (45)', 'walk, writeHead and writev, a regular expression')
  await search(page, 'WALK')
  await clickFrame(page, 'handleRequest')
  assert.equal(await textOf(page, '#search-share'), 'matches: 20.0% of samples (20), 33.3% of the zoomed frame')
  await search(page, 'nothing like this')
  assert.equal(await textOf(page, '#search-share'), 'no match')
  await search(page, '/(/')
  assert.equal(await textOf(page, '#search-share'), 'invalid regular expression')
  await search(page, '')
  assert.equal(await textOf(page, '#search-share'), '')
  assert.notDeepEqual(await frameColor(page, 'handleRequest'), DIM_DARK)
}))

test('the tooltip tells function, location, time on and at the top of the stack, tier and inlining', () => withReport(async (page) => {
  const walk = await hoverFrame(page, 'walk')
  for (const part of ['walk', '/srv/shop/tree.js:1:8', 'on stack20.0% (20 samples)', 'top of stack5.00% (5 samples)', 'function, all callsself 20.0%, total 20.0%', 'app code', 'interpreted (not optimized)']) {
    assert.ok(walk.includes(part), `"${part}" in "${walk}"`)
  }
  assert.ok(!walk.includes('inlined'))
  const parse = await hoverFrame(page, 'parse')
  assert.ok(parse.includes('/srv/shop/node_modules/fast-json/index.js:3:15') && parse.includes('Turbofan (optimized)') && parse.includes('inlined'), parse)
  assert.ok(parse.includes('dependency'))
  const writev = await hoverFrame(page, 'writev')
  assert.ok(writev.includes('(no source location)') && writev.includes('native'), writev)
  await page.mouse.move(5, 5)
  assert.equal(await page.isHidden('#tooltip'), true)
}))

/**
 * Per-function samples counted straight from the stacks, the slow way: each
 * sample adds to every distinct function on its stack.
 * @param {import('../../../lib/cpu-profile/flame-data.js').FlameData} data
 */
function countByStack (data) {
  const { frame, parent, self } = data.nodes
  const selfOf = new Map()
  const totalOf = new Map()
  const callerPairs = new Map()
  for (let n = 1; n < frame.length; n++) {
    if (!self[n]) continue
    selfOf.set(frame[n], (selfOf.get(frame[n]) ?? 0) + self[n])
    if (parent[n] > 0) callerPairs.set(`${frame[n]}<${frame[parent[n]]}`, (callerPairs.get(`${frame[n]}<${frame[parent[n]]}`) ?? 0) + self[n])
    const onStack = new Set()
    for (let a = n; a > 0; a = parent[a]) onStack.add(frame[a])
    for (const f of onStack) totalOf.set(f, (totalOf.get(f) ?? 0) + self[n])
  }
  return { selfOf, totalOf, callerPairs }
}

test('on a big profile only what is wider than a pixel is drawn, and every count agrees with the stacks', async () => {
  const data = makeFlameData({ samples: 60_000, frames: 4_000, seed: 7 })
  const { selfOf, totalOf, callerPairs } = countByStack(data)
  const name = (/** @type {number} */ f) => data.strings[data.frames.name[f]]
  await withReport(async (page) => {
    const drawn = await page.evaluate(() => /** @type {any} */ (window).dynoFlame.framesDrawn())
    assert.ok(drawn > 50 && drawn < data.nodes.frame.length / 4, `${drawn} frames drawn of ${data.nodes.frame.length}`)

    const count = (/** @type {string} */ cell) => Number(cell.split(' ').at(-1)?.replace(/,/g, ''))
    const rows = await tableRows(page)
    assert.equal(rows.length, 100)
    const { file, line, column } = data.frames
    const where = (/** @type {number} */ f) => file[f] < 0 ? '(no source location)' : `${data.strings[file[f]]}:${line[f]}:${column[f]}`
    const byName = new Map([...totalOf.keys()].map((f) => [`${name(f)} ${where(f)}`, f]))
    for (const row of rows) {
      const f = byName.get(`${row[2]} ${row[3]}`)
      assert.ok(f !== undefined, row.join(' | '))
      assert.equal(count(row[0]), selfOf.get(f) ?? 0, `self of ${row[2]}`)
      assert.equal(count(row[1]), totalOf.get(f), `total of ${row[2]}`)
    }

    await page.click('#functions-more')
    assert.equal((await tableRows(page)).length, 200)
    assert.equal(await textOf(page, '#functions-count'), `${totalOf.size.toLocaleString('en-US')} functions`)

    await page.click('#view-inverted')
    const inverted = await page.evaluate(() => {
      const tree = /** @type {any} */ (window).dynoFlame.tree()
      const tops = []
      for (let c = 1; c < tree.count; c = tree.end[c]) tops.push([tree.frame[c], tree.total[c], c])
      return tops
    })
    assert.equal(inverted.length, selfOf.size)
    for (const [f, total] of inverted) assert.equal(total, selfOf.get(f), `${name(f)} on top of the stack`)

    const [widest] = await page.evaluate(() => {
      const tree = /** @type {any} */ (window).dynoFlame.tree()
      return [tree.frame[2], tree.frame[1]]
    })
    await clickFrame(page, name(widest), 0)
    const zoomed = await page.evaluate(() => {
      const api = /** @type {any} */ (window).dynoFlame
      const tree = api.tree()
      const zoom = api.state().zoom
      let children = 0
      for (let c = zoom + 1; c < tree.end[zoom]; c = tree.end[c]) children += tree.total[c]
      return { top: tree.frame[1], total: tree.total[zoom], children, self: tree.self[zoom], depth: tree.depth[zoom] }
    })
    assert.equal(zoomed.depth, 2)
    assert.equal(zoomed.total, callerPairs.get(`${zoomed.top}<${widest}`), 'the zoomed caller pair, counted from the stacks')
    assert.equal(zoomed.children + zoomed.self, zoomed.total)
  }, reportFile(renderFlameHtml(data)))
})
