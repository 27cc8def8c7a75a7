import assert from 'node:assert/strict'
import { test } from 'node:test'
import { renderFlameHtml } from '../../../lib/kinds/flame/html.js'
import { assertNothingRan, reportFile, reportViewerForTests, watchViolations } from '../../helpers/browser.js'
import { HOSTILE, hostileProfile } from '../../helpers/flame-fixtures.js'
import { breadcrumbs, clickFrame, headerFacts, hoverFrame, tableRows, textOf } from '../../helpers/report-page.js'

const viewer = reportViewerForTests({}, watchViolations)
const html = renderFlameHtml(hostileProfile())
const title = `node ${HOSTILE.closeScript}`

/** @param {import('playwright-core').Page} page */
async function assertShownLiterally (page) {
  assert.equal(await page.getAttribute('body', 'data-ready'), 'true')
  assert.equal(await page.title(), `${title} · dyno flame`)
  assert.equal(await page.textContent('#title'), title)
  const facts = await headerFacts(page)
  assert.ok(facts.includes(`Node.js ${HOSTILE.img} (V8 13.6.233.10-node.15)`), facts.join(' | '))
  assert.ok(facts.includes(`app ${HOSTILE.script} (${HOSTILE.comment})`), facts.join(' | '))
  const names = (await tableRows(page)).map((row) => row[2])
  assert.deepEqual(names.sort(), [HOSTILE.script, HOSTILE.closeScript, HOSTILE.img, HOSTILE.comment, HOSTILE.separators].sort())
  assert.ok((await tableRows(page)).every((row) => row[3].startsWith(HOSTILE.file)))

  const tooltip = await hoverFrame(page, HOSTILE.img)
  assert.ok(tooltip.startsWith(HOSTILE.img + HOSTILE.file + ':3:1'), tooltip)
  await clickFrame(page, HOSTILE.comment)
  assert.equal(await breadcrumbs(page), `all › ${HOSTILE.script} › ${HOSTILE.comment}`)
  assert.equal(await textOf(page, '#source-title'), `${HOSTILE.comment} · ${HOSTILE.file}:4:1`)
  const code = await page.$$eval('.source-line code', (lines) => lines.map((line) => line.textContent))
  assert.deepEqual(code, [HOSTILE.script, HOSTILE.closeScript, HOSTILE.img, HOSTILE.comment, HOSTILE.separators])
  await page.fill('#search', '<img')
  assert.equal(await textOf(page, '#search-share'), 'matches: 100.0% of samples (100), 100.0% of the zoomed frame', 'every frame is in the file whose path has <img')
}

test('names, paths, source and title with HTML and script show literally, and nothing runs', async () => {
  const page = await viewer.open(reportFile(html))
  await assertShownLiterally(page)
  // The viewer, its tables and the FlameData: no script the profiled program slipped in.
  await assertNothingRan(page, viewer.problems, 3)
})

test('the escaping holds on its own, without the Content-Security-Policy behind it', async () => {
  const unguarded = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '')
  assert.notEqual(unguarded, html)
  const page = await viewer.open(reportFile(unguarded))
  await assertShownLiterally(page)
  // The viewer, its tables and the FlameData: no script the profiled program slipped in.
  await assertNothingRan(page, viewer.problems, 3)
})
