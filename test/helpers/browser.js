/**
 * A real headless Chromium (see chromium.js for which one) for the report
 * tests and the report benchmark. One browser per test file; pages reused.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before } from 'node:test'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { chromiumPath } from './chromium.js'

export async function launchBrowser () {
  return chromium.launch({
    executablePath: await chromiumPath(),
    args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync']
  })
}

/**
 * Writes the report to a temporary file and returns its file:// URL.
 * @param {string} html
 */
export function reportFile (html) {
  const file = join(mkdtempSync(join(tmpdir(), 'dyno-report-')), 'flamegraph.html')
  writeFileSync(file, html)
  return pathToFileURL(file).href
}

/**
 * A browser with one page that opens reports from file:// one after the
 * other. `problems` collects page errors, console errors and dialogs since
 * the last `open`.
 * @param {{ colorScheme?: 'light' | 'dark', width?: number, height?: number }} [options]
 */
export async function reportViewer (options = {}) {
  const browser = await launchBrowser()
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 900 }, colorScheme: options.colorScheme ?? 'dark' })
  const page = await context.newPage()
  /** @type {string[]} */
  const problems = []
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`) })
  page.on('dialog', (dialog) => { problems.push(`dialog: ${dialog.message()}`); dialog.dismiss().catch(() => {}) })
  return {
    page,
    problems,
    /** Opens a report and waits until it has drawn, or failed. @param {string} url */
    async open (url) {
      problems.length = 0
      await page.goto(url)
      await page.waitForSelector('body[data-ready]')
      return page
    },
    close: () => browser.close()
  }
}

/**
 * For a test file: one viewer for all its tests, started before them (then
 * `setup` runs on its page) and closed after. `check(url, fn)` opens a report,
 * runs `fn` on the page, then asserts that the page reported no error and
 * opened no dialog.
 * @param {Parameters<typeof reportViewer>[0]} [options]
 * @param {(page: import('playwright-core').Page) => Promise<unknown>} [setup]
 */
export function reportViewerForTests (options, setup) {
  /** @type {Awaited<ReturnType<typeof reportViewer>> | undefined} */
  let viewer
  before(async () => {
    viewer = await reportViewer(options)
    await setup?.(viewer.page)
  })
  after(() => viewer?.close())
  const started = () => {
    assert.ok(viewer, 'the viewer starts before the tests')
    return viewer
  }
  return {
    get page () { return started().page },
    get problems () { return started().problems },
    /** @param {string} url */
    open: (url) => started().open(url),
    /** @param {string} url @param {(page: import('playwright-core').Page) => Promise<void>} fn */
    async check (url, fn) {
      await fn(await started().open(url))
      assert.deepEqual(started().problems, [])
    }
  }
}
