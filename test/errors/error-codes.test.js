import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { ERROR_CODES } from '../../lib/error-codes.js'
import { DynoError, dynoError, errorInfo, internalError } from '../../lib/errors.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** @param {string} dir @returns {string[]} */
function sourceFiles (dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(c|m)?js$/.test(entry.name) ? [path] : []
  })
}

const sources = [...sourceFiles(join(root, 'lib')), ...sourceFiles(join(root, 'bin'))]
  .filter((file) => !file.endsWith('error-codes.js'))
  .map((file) => ({ file: relative(root, file), text: readFileSync(file, 'utf8') }))

/** Environment variables share the prefix; they are not error codes. */
const NOT_CODES = new Set(['DYNO_RUN_DIR', 'DYNO_AGENT_SOCKET', 'DYNO_COLLECTORS', 'DYNO_MICRO_WORKER', 'DYNO_CHROMIUM'])

/** @type {Record<string, { exitCode: number, meaning: string, message?: string, messages?: Record<string, string> }>} */
const declared = ERROR_CODES

/** Every declared message, by the name code raises it with: `DYNO_NO_FILE`, `DYNO_BAD_URL.notUrl`. */
const templates = new Map(Object.entries(declared).flatMap(([code, entry]) => entry.messages
  ? Object.entries(entry.messages).map(([name, template]) => [`${code}.${name}`, template])
  : [[code, /** @type {string} */ (entry.message)]]))

/** Values for any template: `{out}` becomes `<out>`. */
const anyValues = new Proxy({}, { has: () => true, get: (_, key) => `<${String(key)}>` })

test('every code is declared with an exit code, a meaning and its messages, each one line with named values', () => {
  assert.ok(templates.size > Object.keys(declared).length)
  for (const [code, entry] of Object.entries(declared)) {
    assert.match(code, /^DYNO_[A-Z0-9_]+$/)
    assert.ok([1, 2, 3, 70].includes(entry.exitCode), `${code}: exit code ${entry.exitCode}`)
    assert.ok(entry.meaning.length > 10, `${code} says what it means`)
    assert.ok((entry.message === undefined) !== (entry.messages === undefined), `${code} has either one message or named messages`)
    if (entry.messages) assert.ok(Object.keys(entry.messages).length > 1, `${code} names its messages, but has one: make it message`)
  }
  for (const [id, template] of templates) {
    assert.ok(!template.includes('\n'), `${id} is one line`)
    assert.doesNotMatch(template, /^\{\w+\}$/, `${id} has more than a value alone`)
    const { code, message } = errorInfo(/** @type {any} */ (id), /** @type {any} */ (anyValues))
    assert.equal(code, id.split('.')[0])
    assert.doesNotMatch(message, /\{\w+\}/, `${id} leaves a value out`)
  }
})

test('a declared error has its code, the exit code it is declared with, and its values in its words', () => {
  const err = dynoError('DYNO_BAD_OUT.notFolder', { out: 'results.txt' })
  assert.ok(err instanceof DynoError)
  assert.equal(err.code, 'DYNO_BAD_OUT')
  assert.equal(err.exitCode, 2)
  assert.equal(err.message, '--out results.txt is not a folder; give a folder for the run folders, like --out .dyno')
  const cause = new Error('connect ECONNREFUSED')
  const refused = dynoError('DYNO_TARGET_REFUSED.refused', { at: '127.0.0.1:3000' }, { cause })
  assert.equal(refused.exitCode, 1)
  assert.equal(refused.cause, cause)
  assert.equal(dynoError('DYNO_NO_FILE').message, 'no benchmark file given; pass one like examples/micro/divide-by-and-sum.js')
  assert.deepEqual(errorInfo('DYNO_BENCH_TIMEOUT', { seconds: 1.5 }), { code: 'DYNO_BENCH_TIMEOUT', message: 'did not finish within 1.5 s (an async case that never settles? see --timeout)' })
  const bug = internalError(new TypeError('x is undefined'))
  assert.equal(bug.code, 'DYNO_INTERNAL')
  assert.equal(bug.exitCode, 70)
  assert.equal(bug.message, 'a bug in dyno (TypeError: x is undefined); please report it with the command line and this output')
  for (const id of templates.keys()) {
    assert.equal(dynoError(/** @type {any} */ (id), /** @type {any} */ (anyValues)).exitCode, declared[id.split('.')[0]].exitCode, id)
  }
  // A name that is not declared, or a value left out, is a bug in dyno: it says so.
  assert.throws(() => dynoError(/** @type {any} */ ('DYNO_BAD_OUT.nope')), /DYNO_BAD_OUT\.nope is not a message declared/)
  assert.throws(() => dynoError(/** @type {any} */ ('DYNO_BAD_URL')), /DYNO_BAD_URL is not a message declared/)
  assert.throws(() => dynoError(/** @type {any} */ ('DYNO_BAD_OUT.notFolder'), /** @type {any} */ ({})), /DYNO_BAD_OUT\.notFolder takes a value for \{out\}/)
})

test('docs/errors.md lists every declared code with its exit code and meaning, and no other code', () => {
  const doc = readFileSync(join(root, 'docs', 'errors.md'), 'utf8')
  /** @type {Map<string, { exitCode: number, meaning: string }>} */
  const rows = new Map()
  for (const [, code, exitCode, meaning] of doc.matchAll(/^\| `(DYNO_[A-Z0-9_]+)` \| (\d+) \| (.+) \|$/gm)) {
    assert.ok(!rows.has(code), `docs/errors.md lists ${code} twice`)
    rows.set(code, { exitCode: Number(exitCode), meaning })
  }
  for (const [code, { exitCode, meaning }] of Object.entries(declared)) {
    assert.deepEqual(rows.get(code), { exitCode, meaning }, `docs/errors.md should list ${code} as | \`${code}\` | ${exitCode} | ${meaning} |`)
  }
  for (const code of rows.keys()) assert.ok(declared[code], `docs/errors.md lists ${code}, which lib/error-codes.js does not declare`)
  for (const [code] of doc.matchAll(/DYNO_[A-Z0-9_]+/g)) {
    assert.ok(declared[code] || NOT_CODES.has(code), `docs/errors.md names ${code}, which lib/error-codes.js does not declare`)
  }
})

test('every code and message raised in lib/ is declared, and every declared message is raised', () => {
  const raised = new Set()
  for (const { file, text } of sources) {
    for (const [, id] of text.matchAll(/['"`](DYNO_[A-Z0-9_]+(?:\.\w+)?)['"`]/g)) {
      if (NOT_CODES.has(id)) continue
      assert.ok(templates.has(id) || declared[id], `${id} (in ${file}) is not declared in lib/error-codes.js`)
      raised.add(id)
    }
  }
  for (const id of templates.keys()) assert.ok(raised.has(id), `${id} is declared in lib/error-codes.js but nothing in lib/ raises it`)
})

test('no code under lib/ builds an error of dyno\'s from words of its own: it names a declared message', () => {
  const offenders = []
  for (const { file, text } of sources) {
    const lines = text.split('\n')
    for (const [i, line] of lines.entries()) {
      const where = `${file}:${i + 1}: ${line.trim()}`
      // Only lib/errors.js makes DynoErrors: from a declared message, or again from one (a thread's, a label's).
      if (file !== join('lib', 'errors.js') && /\bnew DynoError\s*\(/.test(line)) offenders.push(where)
      // The helpers that took a message are gone; none may come back.
      if (/\b(usageError|targetError)\s*\(/.test(line)) offenders.push(where)
      // dynoError and errorInfo take a declared message's name, never words.
      for (const [, first] of line.matchAll(/\b(?:dynoError|errorInfo)\(\s*(['"`][^'"`]*['"`]?)/g)) {
        if (!/^(['"])DYNO_[A-Z0-9_]+(\.\w+)?\1$/.test(first)) offenders.push(where)
      }
      // A micro failure, too, carries a declared code and message.
      if (/\b(stage|type): '(load|setup|run|error)'.*\bmessage: [`'"]/.test(line)) offenders.push(where)
    }
  }
  assert.deepEqual(offenders, [])
})
