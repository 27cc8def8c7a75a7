/**
 * The flamegraph report: one self-contained HTML file carrying the FlameData
 * and the browser code of viewer/ inline. It loads nothing from the network
 * and works from file://. Every string of the profiled program travels as
 * JSON data and reaches the page through textContent or the canvas only.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

/** @typedef {import('../analyze/flame-data.js').FlameData} FlameData */

const VIEWER = new URL('../../viewer/', import.meta.url)

/** The browser scripts in the order they are inlined; a script uses what those before it define. */
const SCRIPTS = [
  'shared/format.js', 'shared/state.js', 'shared/theme.js', 'shared/header.js', 'shared/tooltip.js',
  'flame/profile.js', 'flame/tree-builder.js', 'flame/trees.js', 'flame/stats.js', 'flame/colors.js', 'flame/canvas.js', 'flame/frame-tooltip.js',
  'flame/functions-table.js', 'flame/source.js', 'flame/actions.js', 'flame/model.js', 'flame/controls.js', 'flame/report.js',
  'shared/main.js'
]

/** @type {{ page: string, style: string, script: string, csp: string } | undefined} */
let viewer

function loadViewer () {
  const read = (/** @type {string} */ name) => readFileSync(new URL(name, VIEWER), 'utf8')
  const script = `(function () {\n'use strict'\n${SCRIPTS.map(read).join('\n')}\n})()\n`
  const style = read('style.css')
  for (const text of [script, style]) {
    if (/<\/(script|style)|<!--/i.test(text)) throw new Error('viewer code must not contain </script, </style or <!--')
  }
  // Only this exact script and style apply: even a string that broke out of the data could not run.
  const hash = (/** @type {string} */ text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
  const csp = `default-src 'none'; script-src ${hash(script)}; style-src ${hash(style)}; base-uri 'none'; form-action 'none'`
  return { page: read('index.html'), style, script, csp }
}

/**
 * JSON that is safe inside <script type="application/json">: no '<' to open
 * a tag or a comment, no '>' or '&', and no U+2028/U+2029. JSON has these
 * characters only inside strings, where the \u escapes mean the same.
 * @param {unknown} value
 */
export function embedJson (value) {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
}

/**
 * @param {FlameData} data
 * @returns {string} the whole HTML report
 */
export function renderFlameHtml (data) {
  viewer ??= loadViewer()
  /** @type {Record<string, string>} */
  const parts = { csp: viewer.csp, style: viewer.style, script: viewer.script, data: embedJson(data) }
  return viewer.page.replace(/\{\{(csp|style|script|data)\}\}/g, (_, name) => parts[name])
}
