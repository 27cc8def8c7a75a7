import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { ERROR_CODES } from '../../lib/error-codes.js'

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
  .map((file) => ({ file, text: readFileSync(file, 'utf8') }))

/** Environment variables share the prefix; they are not error codes. */
const NOT_CODES = new Set(['DYNO_RUN_DIR', 'DYNO_AGENT_SOCKET', 'DYNO_COLLECTORS', 'DYNO_MICRO_WORKER', 'DYNO_CHROMIUM'])

test('every code raised in lib/ is in the registry, with the exit code its helper gives', () => {
  for (const { file, text } of sources) {
    for (const [, code] of text.matchAll(/'(DYNO_[A-Z_]+)'/g)) {
      if (NOT_CODES.has(code)) continue
      assert.ok(ERROR_CODES[code], `${code} (raised in ${file}) is not in lib/error-codes.js`)
    }
    for (const [, helper, code] of text.matchAll(/\b(usageError|targetError)\('(DYNO_[A-Z_]+)'/g)) {
      assert.equal(ERROR_CODES[code].exitCode, helper === 'usageError' ? 2 : 1, `${code} in ${file} is raised with ${helper}, but the registry gives exit ${ERROR_CODES[code].exitCode}`)
    }
  }
})

test('every code in the registry is raised somewhere, and documented in docs/errors.md with its exit code', () => {
  const all = sources.map((s) => s.text).join('\n')
  const doc = readFileSync(join(root, 'docs', 'errors.md'), 'utf8')
  for (const [code, { exitCode }] of Object.entries(ERROR_CODES)) {
    assert.ok(all.includes(`'${code}'`), `${code} is in the registry but nothing raises it`)
    assert.match(doc, new RegExp(`^\\| \`${code}\` \\| ${exitCode} \\| .+ \\|$`, 'm'), `docs/errors.md lacks ${code} with exit ${exitCode}`)
  }
})
