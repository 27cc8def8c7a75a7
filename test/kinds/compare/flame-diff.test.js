import assert from 'node:assert/strict'
import { test } from 'node:test'
import { diffProfiles } from '../../../lib/kinds/compare/flame-diff.js'
import { flameDiffData } from '../../../lib/kinds/compare/flame-diff-data.js'
import { renderFlameDiff } from '../../../lib/kinds/compare/flame-diff-terminal.js'
import { createStyle } from '../../../lib/report/style.js'
import { LINES_ADDED, REQUESTS, recordedTwoVersions } from '../../helpers/two-versions.js'

// Recorded on a quiet machine: test/timing/flame-diff.test.js profiles them here and now.
const versions = recordedTwoVersions()
const BURN_LINE = 2
const plain = createStyle({ isTTY: false })

test('the function that does a tenth of the work per request comes first, with the win', () => {
  const diff = diffProfiles(versions)
  const [first] = diff.functions
  assert.equal(first.name, 'burn')
  assert.ok(first.change < 0, `burn's change is ${first.change}`)
  assert.ok(first.after > 0, 'burn still runs after the fix')
  assert.ok(first.after / first.before < 0.5, `burn went from ${first.before} to ${first.after} ms per request`)
  assert.equal(first.change, first.after - first.before)
  assert.deepEqual(diff.requests, { before: REQUESTS, after: REQUESTS })
  assert.ok(diff.total.after < diff.total.before, `CPU per request went from ${diff.total.before} to ${diff.total.after} ms`)
  assert.ok(first.before <= diff.total.before)
  // Sorted by the size of the change, either way.
  const sizes = diff.functions.map((f) => Math.abs(f.change))
  assert.deepEqual(sizes, [...sizes].sort((a, b) => b - a))
  assert.ok(diff.functions.every((f) => f.name !== '(idle)'), 'idle time is not CPU')
})

test('a function that moved down its file is the same function, named where it is now', () => {
  const burns = diffProfiles(versions).functions.filter((f) => f.name === 'burn')
  assert.equal(burns.length, 1)
  assert.equal(burns[0].location, `server.js:${BURN_LINE + LINES_ADDED}`)
  assert.ok(burns[0].before > 0 && burns[0].after > 0)
})

test('without their folders, each version\'s files are named from the folder that holds them', () => {
  const bare = (/** @type {import('../../../lib/kinds/compare/flame-diff.js').DiffSide} */ side) => ({ profile: side.profile, requests: side.requests })
  const diff = diffProfiles({ before: bare(versions.before), after: bare(versions.after) })
  assert.deepEqual(diff, diffProfiles(versions))
})

test('time per request: the same profile over ten times the requests took a tenth per request', () => {
  const diff = diffProfiles({ before: versions.before, after: { ...versions.before, requests: REQUESTS * 10 } })
  for (const f of diff.functions) assert.ok(Math.abs(f.after * 10 - f.before) < 1e-9 * Math.max(1, f.before), f.name)
  assert.ok(diff.functions.every((f) => f.change <= 0))
})

test('a side without requests is refused with what is wrong', () => {
  assert.throws(() => diffProfiles({ before: { ...versions.before, requests: 0 }, after: versions.after }), /before side answered 0 requests/)
})

test('the differential tree: after\'s stacks with the time the same stack took before', () => {
  const { data, diff } = flameDiffData(versions)
  assert.deepEqual(diff, diffProfiles(versions))
  assert.equal(data.meta.unit, 'ms per request')
  const before = /** @type {NonNullable<typeof data.diff>} */ (data.diff).before
  assert.equal(before.length, data.nodes.frame.length)
  const burnNodes = data.nodes.frame.flatMap((f, i) => data.strings[data.frames.name[f]] === 'burn' ? [i] : [])
  // burn is called from handle alone, but a sample taken while handle's frame is being set up or
  // torn down now and then puts burn straight under handle's caller: its stack is the one with the most.
  const node = burnNodes.reduce((best, i) => data.nodes.self[i] > data.nodes.self[best] ? i : best)
  const burn = diff.functions[0]
  const within = (/** @type {number} */ part, /** @type {number} */ whole) => part <= whole + 1e-9 && part >= 0.9 * whole
  assert.ok(within(before[node], burn.before), `burn's time before on that stack: ${before[node]} of ${burn.before} ms per request`)
  assert.ok(within(data.nodes.self[node], burn.after), `its width, burn's time per request after: ${data.nodes.self[node]} of ${burn.after} ms`)
  assert.ok(Math.abs(data.nodes.total[0] - diff.total.after) < 1e-9)
})

test('the terminal names the function with its time per request before and after', () => {
  const out = renderFlameDiff(diffProfiles(versions), { style: plain, limit: 5 })
  const lines = out.split('\n')
  assert.equal(lines[0], 'CPU per request, before → after (self time)')
  // The columns are padded to the widest figure: any number of spaces between them.
  assert.match(lines[1], new RegExp(`^ {2}burn +[\\d.]+ ms → +[\\d.]+ ms per request +\\(\u2212[\\d.]+ ms\\) +server\\.js:${BURN_LINE + LINES_ADDED}$`))
  assert.ok(lines.length <= 1 + 5 + 4)
  assert.match(out, /\nTotal CPU {2}[\d.]+ ms → [\d.]+ ms per request {2}\(\u2212[\d.]+ ms, \u2212\d+%\)\n/)
  assert.match(out, new RegExp(`over ${REQUESTS} requests before and ${REQUESTS} after\\n$`))
})
