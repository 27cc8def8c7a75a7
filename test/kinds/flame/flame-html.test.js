import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'node:test'
import { embedJson, renderFlameHtml } from '../../../lib/kinds/flame/html.js'
import { hostileProfile, shopProfile, HOSTILE } from '../../helpers/flame-fixtures.js'

/** @param {string} html */
function embeddedData (html) {
  const match = /<script type="application\/json" id="flame-data">([\s\S]*?)<\/script>/.exec(html)
  assert.ok(match, 'the data is embedded')
  return match[1]
}

test('the report is one HTML file carrying the FlameData intact', () => {
  const data = shopProfile()
  const html = renderFlameHtml(data)
  assert.match(html, /^<!doctype html>/)
  assert.deepEqual(JSON.parse(embeddedData(html)), data)
  assert.equal(html.match(/<script/g)?.length, 3, 'the tables, the data and the viewer, nothing else')
  const tables = JSON.parse(/<script type="application\/json" id="flame-tables">([^<]*)<\/script>/.exec(html)?.[1] ?? '')
  assert.deepEqual(tables, { category: { app: 0, deps: 1, core: 2, native: 3, gc: 4, program: 5, unit: 6 }, tier: { unknown: 0, interpreted: 1, baseline: 2, maglev: 3, turbofan: 4 } })
  assert.match(html, /<style>[\s\S]*--bg:/)
})

test('the report loads nothing from anywhere: no src, href, url() or import, and a CSP that forbids it', () => {
  const html = renderFlameHtml(shopProfile())
  const page = html.replace(embeddedData(html), '')
  assert.doesNotMatch(page, /\b(src|href)\s*=/i)
  assert.doesNotMatch(page, /url\(|@import|https?:\/\//i)
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? ''
  assert.match(csp, /default-src 'none'/)
  const hash = (/** @type {RegExp} */ element) => createHash('sha256').update(element.exec(html)?.[1] ?? '').digest('base64')
  assert.ok(csp.includes(`script-src 'sha256-${hash(/<script>([\s\S]*)<\/script>/)}'`), 'only the viewer script may run')
  assert.ok(csp.includes(`style-src 'sha256-${hash(/<style>([\s\S]*)<\/style>/)}'`), 'only the viewer style applies')
})

test('embedded JSON cannot close the script, open a comment or break a line', () => {
  const value = { names: ['</script><script>alert(1)</script>', '<!--', '-->', 'a\u2028b\u2029c', '&amp;', '<img src=x onerror=alert(1)>'] }
  const json = embedJson(value)
  assert.doesNotMatch(json, /[<>&\u2028\u2029]/)
  assert.deepEqual(JSON.parse(json), value)
})

test('hostile names, paths, source and title stay inside the data', () => {
  const data = hostileProfile()
  const html = renderFlameHtml(data)
  assert.equal(html.match(/<script/gi)?.length, 3)
  assert.equal(html.match(/<\/script/gi)?.length, 3)
  assert.equal(html.match(/<!--/g), null)
  assert.ok(!html.includes(HOSTILE.img))
  assert.deepEqual(JSON.parse(embeddedData(html)), data)
})
