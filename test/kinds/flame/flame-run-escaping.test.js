import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { pathToFileURL } from 'node:url'
import { reportViewer } from '../../helpers/browser.js'
import { tableRows } from '../../helpers/report-page.js'
import { runDyno } from '../../helpers/cli.js'

// Names the profiled program chose, meant to break out of the report: V8
// names a function assigned to a string key after the key, a file after its
// path, and eval'd code after its sourceURL comment.
const SCRIPT_KEY = '</script><script>window.__pwned = 1</script>'
const IMG_KEY = '"><img src=x onerror="window.__pwned = 2">'
const FILE_NAME = 'evil"<script>window.__pwned = 3<!--.cjs'
// (V8 ignores a sourceURL with quotes or blanks in it.)
const SOURCE_URL = 'x</script><script>window.__pwned=4</script>.js'

const BURN = 'let x = 0; for (const until = Date.now() + 200; Date.now() < until;) x += Math.sqrt(x + 1); return x'

test('a profiled program cannot run script in its report through the names it chose', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-evil-'))
  writeFileSync(join(dir, FILE_NAME), `
    const handlers = {}
    handlers[${JSON.stringify(SCRIPT_KEY)}] = function () { ${BURN} }
    handlers[${JSON.stringify(IMG_KEY)}] = function () { ${BURN} }
    for (const name of Object.keys(handlers)) handlers[name]()
    eval(${JSON.stringify(`function evalBurn () { ${BURN} }\nevalBurn()\n//# sourceURL=${SOURCE_URL}`)})
  `)
  const run = await runDyno(['flame', '--', process.execPath, FILE_NAME], { cwd: dir })
  assert.equal(run.code, 0, run.stderr)
  const [folder] = readdirSync(join(dir, '.dyno'))

  const viewer = await reportViewer()
  t.after(() => viewer.close())
  const page = await viewer.open(pathToFileURL(join(dir, '.dyno', folder, 'flamegraph.html')).href)
  assert.equal(await page.evaluate(() => typeof (/** @type {any} */ (window).__pwned)), 'undefined')
  assert.deepEqual(viewer.problems, [])
  assert.equal(await page.evaluate(() => document.querySelectorAll('img, [onerror]').length), 0)
  // And they read as what they are.
  const rows = await tableRows(page)
  const names = rows.map((row) => row[2])
  assert.ok(names.includes(`handlers.${SCRIPT_KEY}`), names.slice(0, 6).join(' | '))
  assert.ok(names.includes(`handlers.${IMG_KEY}`))
  assert.ok(rows.some((row) => row[3].startsWith(FILE_NAME)), rows.slice(0, 6).map((r) => r[3]).join(' | '))
  assert.ok(rows.some((row) => row[2] === 'evalBurn' && row[3].startsWith(SOURCE_URL)), JSON.stringify(rows.filter((r) => r[2] === 'evalBurn')))
})
