import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { runDyno } from '../../helpers/cli.js'
import { takeSnapshots, tempDir } from '../../helpers/heap-snapshots.js'

const cwd = tempDir('dyno-heap-cli-')

/** @param {string[]} args */
const dyno = (args) => runDyno(args, { cwd, timeout: 60_000 })

/**
 * One line, no stack trace, exit 2.
 * @param {{ code: number | null, stderr: string }} run what runDyno gave
 * @param {RegExp} message
 */
function mistake (run, message) {
  assert.equal(run.code, 2, run.stderr)
  assert.match(run.stderr, message)
  assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr)
  assert.doesNotMatch(run.stderr, /\n\s+at /)
}

test('dyno heap diff wants two or three snapshots that exist and are snapshots', async () => {
  mistake(await dyno(['heap', 'diff', 'a.heapsnapshot']), /give two or three snapshots, oldest first/)
  mistake(await dyno(['heap', 'diff', 'a.heapsnapshot', 'b.heapsnapshot']), /no such file: a\.heapsnapshot/)
  writeFileSync(join(cwd, 'profile.cpuprofile'), JSON.stringify({ nodes: [], startTime: 0, endTime: 1 }))
  mistake(await dyno(['heap', 'diff', 'profile.cpuprofile', 'profile.cpuprofile']), /profile\.cpuprofile is not a heap snapshot V8 wrote: "nodes" comes before "snapshot"/)
  // A refused diff leaves no run folder behind.
  assert.deepEqual(existsSync(join(cwd, '.dyno')) ? readdirSync(join(cwd, '.dyno')) : [], [])
})

test('dyno heap wants a command', async () => {
  mistake(await dyno(['heap']), /no command to observe; give it after --/)
})

test('dyno heap diff prints the growth table, and --json the rows and leaks', async () => {
  const [before, after] = takeSnapshots('globalThis.kept = []; snapshot(); for (let i = 0; i < 500; i++) kept.push(new (class Grown {})()); snapshot()')
  const text = await dyno(['heap', 'diff', before, after])
  assert.equal(text.code, 0, text.stderr)
  assert.match(text.stdout, /│ Constructor +│ # New +│ # Deleted │ # Delta │ Alloc\. Size │ Freed Size │ Size Delta │ Retained Δ │/)
  assert.match(text.stdout, /`Grown` \+500 objects \(\+[\d.]+ kB retained\) held by `kept` array items/)
  const json = await dyno(['heap', 'diff', '--json', before, after])
  const result = JSON.parse(json.stdout)
  assert.equal(result.schemaVersion, 1)
  assert.ok(result.comparison.some((/** @type {any} */ row) => row.name === 'Grown' && row.newCount === 500))
  assert.deepEqual(result.leaks.map((/** @type {any} */ leak) => [leak.constructor, leak.countDelta]), [['Grown', 500]])
  assert.match(result.leaks[0].holder, /^`kept` array items$/)
  assert.ok(Array.isArray(result.leaks[0].path) && result.leaks[0].path.length > 1)
})

test('dyno heap diff --help shows the diff\'s own usage and flags', async () => {
  const run = await runDyno(['heap', 'diff', '--help'])
  assert.equal(run.code, 0)
  assert.match(run.stdout, /^Usage: dyno heap diff <a\.heapsnapshot> <b\.heapsnapshot>/)
  assert.doesNotMatch(run.stdout, /--load/)
})

test('dyno heap diff of two processes\' snapshots: refused in one line, no leak made of ids that match by chance', async () => {
  // Two processes running different code: their object ids line up, their objects do not.
  const [a] = takeSnapshots('globalThis.kept = Array.from({ length: 3000 }, (_, i) => ({ i })); snapshot(); snapshot()')
  const [, b] = takeSnapshots('globalThis.kept = Array.from({ length: 3000 }, (_, i) => [String(i)]); snapshot(); snapshot()')
  mistake(await dyno(['heap', 'diff', a, b]), /are not snapshots of one process: \d+% of the object ids they share name objects of another kind/)
})

test('dyno heap diff of a folder, or of bytes that are not text: said as such, nothing echoed raw', async () => {
  mkdirSync(join(cwd, 'a-folder'), { recursive: true })
  writeFileSync(join(cwd, 'noise.heapsnapshot'), Buffer.from([0x00, 0xff, 0x1b, 0x5b, 0x32, 0x4a, 0x07, 0x80, 0x9b]))
  mistake(await dyno(['heap', 'diff', 'a-folder', 'noise.heapsnapshot']), /a-folder is a folder, not a snapshot/)
  const noise = await dyno(['heap', 'diff', 'noise.heapsnapshot', 'noise.heapsnapshot'])
  mistake(noise, /noise\.heapsnapshot is not a heap snapshot V8 wrote: expected a JSON object at byte 0, found "[ -~]*"$/m)
  assert.ok([...noise.stderr].every((c) => c === '\n' || (c >= ' ' && c <= '~')), noise.stderr)
})
