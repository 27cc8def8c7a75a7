import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { main } from '../../lib/cli/main.js'

/**
 * An IO whose writes are kept, or throw (to stand for a bug inside dyno).
 * @param {{ failingStdout?: boolean }} [options]
 */
function memoryIO ({ failingStdout = false } = {}) {
  const out = { stdout: '', stderr: '' }
  const stream = (/** @type {'stdout' | 'stderr'} */ name) => /** @type {NodeJS.WriteStream} */ (/** @type {unknown} */ ({
    isTTY: false,
    write (/** @type {string} */ text) {
      if (name === 'stdout' && failingStdout) throw new TypeError('cannot write')
      out[name] += text
      return true
    }
  }))
  return { out, io: { stdout: stream('stdout'), stderr: stream('stderr'), cwd: process.cwd(), env: {}, onInterrupt: () => () => {} } }
}

/** A run folder as dyno wrote them before meta.json had a kind (schema 1). */
function schemaOneFolder () {
  const folder = mkdtempSync(join(tmpdir(), 'dyno-report-'))
  const frame = (/** @type {string} */ functionName) => ({ functionName, scriptId: '1', url: 'file:///srv/app.js', lineNumber: 0, columnNumber: 0 })
  const profile = {
    nodes: [{ id: 1, callFrame: frame('(root)'), children: [2] }, { id: 2, callFrame: frame('handle'), children: [] }],
    startTime: 0,
    endTime: 3000,
    samples: [2, 2, 2],
    timeDeltas: [1000, 1000, 1000]
  }
  writeFileSync(join(folder, 'profile.cpuprofile'), JSON.stringify(profile))
  writeFileSync(join(folder, 'meta.json'), JSON.stringify({ schemaVersion: 1, command: 'flame', title: 'node app.js', cwd: folder, startedAt: new Date().toISOString(), exit: { how: 'stopped by dyno after the load', code: null } }))
  return folder
}

test('dyno report renders a folder written before meta.json had a kind', async () => {
  const { out, io } = memoryIO()
  const code = await main(['report', schemaOneFolder()], io)
  assert.equal(code, 0, out.stderr)
  assert.match(out.stdout, /The app stopped by dyno after the load\./)
  assert.match(out.stdout, /Report: file:.*flamegraph\.html/)
})

test('dyno report on a kind it cannot render, or a folder that is not a run: one line, exit 2', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'dyno-report-'))
  writeFileSync(join(folder, 'meta.json'), JSON.stringify({ schemaVersion: 2, kind: 'telepathy' }))
  const unknown = memoryIO()
  assert.equal(await main(['report', folder], unknown.io), 2)
  assert.match(unknown.out.stderr, /^dyno report: .* holds a "telepathy" run, which this dyno cannot render; the kinds it renders are flame/)

  const empty = mkdtempSync(join(tmpdir(), 'dyno-report-'))
  mkdirSync(join(empty, 'raw'))
  const none = memoryIO()
  assert.equal(await main(['report', empty], none.io), 2)
  assert.match(none.out.stderr, /meta\.json does not exist; is .* a dyno run folder\?\n$/)
})

test('a failure that is nobody\'s mistake is called a bug in dyno, with exit code 70', async () => {
  const { out, io } = memoryIO({ failingStdout: true })
  const code = await main(['report', schemaOneFolder()], io)
  assert.equal(code, 70)
  assert.match(out.stderr, /^dyno report: a bug in dyno \(TypeError: cannot write\); please report it/)
  assert.ok(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).name)
})
