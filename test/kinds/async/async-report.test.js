/**
 * report.html of dyno async in a real Chromium: the findings, the waterfalls
 * of the typical and the slowest request, the call sites, and the source line
 * of what is clicked; under its Content-Security-Policy, with every string of
 * the app's (paths, function names, the request's path, source, the title)
 * shown as text.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { analyzeAsync } from '../../../lib/kinds/async/analyze.js'
import { parseAsyncData } from '../../../lib/kinds/async/data.js'
import { renderAsyncHtml } from '../../../lib/kinds/async/html.js'
import { assertNothingRan, reportFile, reportViewerForTests, watchViolations } from '../../helpers/browser.js'
import { HOSTILE } from '../../helpers/flame-fixtures.js'
import { lineOf } from '../../helpers/async.js'

const viewer = reportViewerForTests({}, watchViolations)

const root = fileURLToPath(new URL('../../..', import.meta.url))
const recorded = readFileSync(new URL('../../fixtures/async/chain-serial.jsonl', import.meta.url), 'utf8')

const meta = {
  title: 'node examples/async/chain-serial.cjs',
  startedAt: '2026-11-23T10:00:00.000Z',
  finishedAt: '2026-11-23T10:00:04.000Z',
  node: process.versions.node,
  cwd: root,
  exit: { how: 'stopped by dyno after the load', code: null, signal: 'SIGTERM' },
  load: null
}

/**
 * The report of a recorded trace, its /app/ paths taken to `replace`.
 * @param {(text: string) => string} replace
 * @param {Record<string, string>} sources
 * @param {typeof meta} [reportMeta]
 */
function report (replace, sources, reportMeta = meta) {
  const analysis = analyzeAsync(parseAsyncData(replace(recorded)))
  return renderAsyncHtml({ meta: reportMeta, analysis, sources })
}

/** @param {import('playwright-core').Page} page @param {string} selector */
const texts = (page, selector) => page.$$eval(selector, (elements) => elements.map((e) => e.textContent ?? ''))

test('findings, waterfall, call sites; a click on a finding, a bar or a call site shows its source line', () => viewer.check(reportFile(report((t) => t.split('/app/').join(root), {
  [`${root}examples/async/chain-serial.cjs`]: readFileSync(`${root}examples/async/chain-serial.cjs`, 'utf8'),
  [`${root}examples/async/backend.cjs`]: readFileSync(`${root}examples/async/backend.cjs`, 'utf8')
})), async (page) => {
  const file = `${root}examples/async/chain-serial.cjs`
  const line = lineOf(file, 'await readUser(id)')
  assert.equal(await page.title(), `${meta.title} · dyno async`)
  assert.deepEqual(await texts(page, '.finding-kind'), ['serial-awaits'])
  assert.deepEqual(await texts(page, '.finding-where'), [`examples/async/chain-serial.cjs:${line}`])
  assert.match((await texts(page, '.finding-text'))[0], /^readPage awaits 3 operations one after another/)

  // The typical request's waterfall: a bar per operation, the critical path marked, continuations ticked.
  assert.match(await page.textContent('#waterfall-title') ?? '', /^Typical request: GET \/$/)
  const rows = await page.$$('.wf-row')
  assert.ok(rows.length >= 9, `${rows.length} rows`)
  assert.ok((await page.$$('.wf-bar.critical')).length >= 6)
  assert.ok((await page.$$('.wf-tick')).length >= 3)
  const labels = await texts(page, '.wf-label')
  assert.ok(labels.includes(`examples/async/chain-serial.cjs:${line} (readPage)`), labels.join(' | '))

  // The finding's place opens its line in the source panel.
  await page.click('.finding-where')
  assert.equal(await page.textContent('#source-title'), `readPage · examples/async/chain-serial.cjs:${line}`)
  assert.equal(await page.textContent('.source-line.current code'), '  const user = await readUser(id)')
  assert.deepEqual((await texts(page, '#source-stack button')).slice(0, 1), [`readPage examples/async/chain-serial.cjs:${line}`])

  // A bar: its tooltip, and its line on a click.
  const timer = rows[labels.findIndex((l) => l.startsWith('examples/async/backend.cjs'))]
  await timer.hover()
  await page.waitForSelector('#tooltip:not([hidden])')
  assert.match(await page.textContent('#tooltip') ?? '', /examples\/async\/backend\.cjs:\d+ \(wait\)/)
  await timer.click()
  assert.match(await page.textContent('#source-title') ?? '', /· examples\/async\/backend\.cjs:\d+$/)

  // Only the critical path; then the slowest request.
  await page.check('#critical-only')
  assert.equal((await page.$$('.wf-row')).length, (await page.$$('.wf-bar.critical')).length)
  await page.click('#show-slowest')
  assert.match(await page.textContent('#waterfall-title') ?? '', /^Slowest request: GET \/$/)
  assert.equal(await page.getAttribute('#show-slowest', 'aria-pressed'), 'true')

  // The call sites: sorted by total wait; a click shows the line.
  const sites = await page.$$('#call-sites tbody tr')
  assert.ok(sites.length >= 8)
  await page.click('#call-sites th button[data-sort="count"]')
  assert.equal(await page.getAttribute('#call-sites th button[data-sort="count"]', 'aria-sort'), 'descending')
  await page.click('#call-sites tbody tr:first-child')
  assert.equal(await page.getAttribute('#call-sites tbody tr:first-child', 'aria-selected'), 'true')
  await assertNothingRan(page, viewer.problems, 2)
}))

/** The recorded trace with the app's file, its function, the request's path and the title made of HTML and script. */
const inJson = (/** @type {string} */ text) => JSON.stringify(text).slice(1, -1)
const hostileReport = report(
  (t) => t.split('/app/examples/async/chain-serial.cjs').join(inJson(HOSTILE.file)).split('readPage').join(inJson(HOSTILE.script)).split('"path":"/"').join(`"path":${JSON.stringify(HOSTILE.img)}`),
  { [HOSTILE.file]: [HOSTILE.script, HOSTILE.closeScript, HOSTILE.img, HOSTILE.comment, HOSTILE.separators, 'x', 'y', 'z', 'w', '  const user = await readUser(id)'].join('\n') },
  { ...meta, title: `node ${HOSTILE.closeScript}`, node: HOSTILE.img }
)

/** @param {import('playwright-core').Page} page */
async function assertShownLiterally (page) {
  assert.equal(await page.getAttribute('body', 'data-ready'), 'true')
  assert.equal(await page.title(), `node ${HOSTILE.closeScript} · dyno async`)
  assert.equal(await page.textContent('#title'), `node ${HOSTILE.closeScript}`)
  assert.deepEqual(await texts(page, '.finding-where'), [`${HOSTILE.file}:10`])
  assert.ok((await texts(page, '.finding-text'))[0].startsWith(`${HOSTILE.script} awaits 3 operations`))
  assert.equal(await page.textContent('#waterfall-title'), `Typical request: GET ${HOSTILE.img}`)
  assert.ok((await texts(page, '.wf-label')).includes(`${HOSTILE.file}:10 (${HOSTILE.script})`))
  await page.click('.finding-where')
  assert.equal(await page.textContent('#source-title'), `${HOSTILE.script} · ${HOSTILE.file}:10`)
  assert.deepEqual((await texts(page, '.source-line code')).slice(0, 5), [HOSTILE.script, HOSTILE.closeScript, HOSTILE.img, HOSTILE.comment, HOSTILE.separators])
}

test('paths, function names, the request\'s path, source and title with HTML and script show literally, and nothing runs', async () => {
  const page = await viewer.open(reportFile(hostileReport))
  await assertShownLiterally(page)
  await assertNothingRan(page, viewer.problems, 2)
})

test('the escaping holds on its own, without the Content-Security-Policy behind it', async () => {
  const unguarded = hostileReport.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '')
  assert.notEqual(unguarded, hostileReport)
  const page = await viewer.open(reportFile(unguarded))
  await assertShownLiterally(page)
  await assertNothingRan(page, viewer.problems, 2)
})

test('nothing traced: the report says why, and shows no waterfall', () => viewer.check(reportFile(renderAsyncHtml({ meta, analysis: analyzeAsync(parseAsyncData('')), sources: {} })), async (page) => {
  assert.equal(await page.isVisible('#notice'), true)
  assert.match(await page.textContent('#notice') ?? '', /No HTTP request reached the app/)
  assert.equal((await page.$$('.wf-row')).length, 0)
  assert.deepEqual(await texts(page, '.findings li'), ['No request was traced.'])
}))
