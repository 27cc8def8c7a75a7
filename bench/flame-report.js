#!/usr/bin/env node
/**
 * How the flamegraph report copes with a big profile: a synthetic 10-minute
 * profile (600k samples at 1 ms, tens of thousands of functions, a few
 * hundred thousand call tree nodes) is rendered to HTML, then opened from
 * file:// in headless Chromium, where the first draw, zoom, search, redraw,
 * the inverted view and a filter are timed. Interactions are driven through
 * the page's own event handlers and timed until the next frame is painted;
 * each is repeated and the median printed.
 *
 *   node bench/flame-report.js [--samples 600000] [--frames 30000] [--rounds 5]
 */
import { statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { renderFlameHtml } from '../lib/kinds/flame/html.js'
import { reportFile, reportViewer } from '../test/helpers/browser.js'
import { makeFlameData } from '../test/helpers/flame-generator.js'

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '600000' },
    frames: { type: 'string', default: '30000' },
    rounds: { type: 'string', default: '5' }
  }
})
const rounds = Number(values.rounds)

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const ms = (/** @type {number} */ x) => `${x.toFixed(x < 10 ? 1 : 0)} ms`

let started = performance.now()
const data = makeFlameData({ samples: Number(values.samples), frames: Number(values.frames) })
const generated = performance.now() - started
console.log(`profile: ${data.meta.samples.toLocaleString('en-US')} samples, ${data.frames.name.length.toLocaleString('en-US')} functions, ${data.nodes.frame.length.toLocaleString('en-US')} nodes, ${Object.keys(data.sources).length} source files (generated in ${ms(generated)})`)

/** @type {number[]} */
const renders = []
let html = ''
for (let i = 0; i < rounds; i++) {
  started = performance.now()
  html = renderFlameHtml(data)
  renders.push(performance.now() - started)
}
const url = reportFile(html)
const size = statSync(fileURLToPath(url)).size

const viewer = await reportViewer({ width: 1400, height: 900 })
/** @type {number[]} */
const firstDraws = []
const timings = /** @type {Record<string, number[]>} */ ({ zoomed: [], zoom: [], 'zoom out': [], 'search "parse"': [], 'search "e" (matches most)': [], 'clear search': [], 'scroll redraw': [], 'inverted view': [], 'back to flame': [], 'hide native': [], 'show native': [] })
try {
  for (let round = 0; round < rounds; round++) {
    const page = await viewer.open(url)
    firstDraws.push(await page.evaluate(() => performance.getEntriesByName('dyno:drawn')[0].startTime))
    const measured = await page.evaluate(async () => {
      const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id))
      const painted = () => new Promise((resolve) => window.requestAnimationFrame(() => setTimeout(resolve, 0)))
      /** @param {() => void} action */
      const time = async (action) => {
        await painted()
        const t0 = performance.now()
        action()
        await painted()
        return performance.now() - t0
      }
      const canvas = $('flame')
      const api = /** @type {any} */ (window).dynoFlame
      const tree = api.tree()
      let target = 1
      for (let i = 1; i < tree.count; i++) if (tree.depth[i] === 8 && tree.total[i] > tree.total[target]) target = i
      const rect = api.frameRect(target)
      const search = /** @type {HTMLInputElement} */ ($('search'))
      const type = (/** @type {string} */ text) => { search.value = text; search.dispatchEvent(new Event('input')) }
      const filter = /** @type {HTMLInputElement} */ (document.querySelector('[data-filter="native"]'))
      return {
        zoom: await time(() => canvas.dispatchEvent(new window.MouseEvent('click', { clientX: rect.x + rect.width / 2, clientY: rect.y + rect.height / 2, bubbles: true }))),
        zoomed: api.state().zoom === target ? 1 : 0,
        'zoom out': await time(() => document.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'Escape' }))),
        'search "parse"': await time(() => type('parse')),
        'search "e" (matches most)': await time(() => type('e')),
        'clear search': await time(() => type('')),
        'scroll redraw': await time(() => { $('flame-scroll').scrollTop -= 200 }),
        'inverted view': await time(() => $('view-inverted').click()),
        'back to flame': await time(() => $('view-flame').click()),
        'hide native': await time(() => { filter.checked = false; filter.dispatchEvent(new Event('change')) }),
        'show native': await time(() => { filter.checked = true; filter.dispatchEvent(new Event('change')) })
      }
    })
    if (viewer.problems.length) throw new Error(viewer.problems.join('\n'))
    if (!measured.zoomed) throw new Error('the click did not zoom')
    for (const [name, value] of Object.entries(measured)) timings[name].push(value)
  }
} finally {
  await viewer.close()
}

console.log(`renderFlameHtml: ${ms(median(renders))}   HTML: ${(size / 1e6).toFixed(1)} MB`)
console.log(`open from file:// to first draw: ${ms(median(firstDraws))}`)
delete timings.zoomed
for (const [name, values] of Object.entries(timings)) console.log(`${name.padEnd(28)} ${ms(median(values))}`)
console.log(`(medians of ${rounds}; interactions timed from the event to the next painted frame)`)
