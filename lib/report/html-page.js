/**
 * One self-contained HTML report from a page of viewer/, its browser code
 * (the report's main module with all it imports, bundled: viewer-bundle.js)
 * and styles inlined, and the report's data as JSON. It loads nothing from
 * the network and works from file://; its Content-Security-Policy lets only
 * this exact script and style run (by their hashes), so even a string of
 * the profiled program that broke out of the data could not.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { viewerBundle } from './viewer-bundle.js'

const VIEWER = new URL('../../viewer/', import.meta.url)

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
 * A report's page, built once, ready to take its data: `{{data}}`, and any
 * other `{{name}}` the page holds from `more` (each embedded as JSON).
 * @param {{ page: string, entry: string }} files under viewer/: the page, and the report's main module
 * @returns {(data: unknown, more?: Record<string, unknown>) => string} the whole HTML report
 */
export function reportPage (files) {
  /** @type {{ page: string, style: string, script: string, csp: string } | undefined} */
  let viewer
  return (data, more = {}) => {
    viewer ??= load(files)
    /** @type {Record<string, string>} */
    const parts = { csp: viewer.csp, style: viewer.style, script: viewer.script, data: embedJson(data) }
    for (const [name, value] of Object.entries(more)) parts[name] = embedJson(value)
    return viewer.page.replace(/\{\{(\w+)\}\}/g, (match, name) => parts[name] ?? match)
  }
}

/** @param {{ page: string, entry: string }} files */
function load (files) {
  const { script, style } = viewerBundle(files.entry)
  for (const text of [script, style]) {
    if (/<\/(script|style)|<!--/i.test(text)) throw new Error('viewer code must not contain </script, </style or <!--')
  }
  const hash = (/** @type {string} */ text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
  const csp = `default-src 'none'; script-src ${hash(script)}; style-src ${hash(style)}; base-uri 'none'; form-action 'none'`
  return { page: readFileSync(new URL(files.page, VIEWER), 'utf8'), style, script, csp }
}
