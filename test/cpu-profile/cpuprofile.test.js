import assert from 'node:assert/strict'
import { test } from 'node:test'
import { gunzipSync } from 'node:zlib'
import { Profile } from 'pprof-format'
import { buildFlameData } from '../../lib/cpu-profile/build-flame-data.js'
import { toCollapsed } from '../../lib/cpu-profile/collapsed.js'
import { mergeProfiles, whyNotProfile } from '../../lib/cpu-profile/cpuprofile.js'
import { CATEGORIES } from '../../lib/cpu-profile/flame-data.js'
import { hotFunctions } from '../../lib/cpu-profile/hot-functions.js'
import { toPprof } from '../../lib/cpu-profile/pprof.js'

/** @param {string} functionName @param {string} [url] @param {number} [lineNumber] */
const frame = (functionName, url = '', lineNumber = 0) => ({ functionName, scriptId: url ? '7' : '0', url, lineNumber, columnNumber: 4 })

/**
 * A small profile: root -> main -> { work (x3 samples), helper -> work (x1) }, plus idle and GC.
 * @param {number} startTime
 */
function profile (startTime) {
  return {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 6, 7] },
      { id: 2, callFrame: frame('main', 'file:///app/main.js', 0), children: [3, 4] },
      { id: 3, callFrame: frame('work', 'file:///app/main.js', 9), positionTicks: [{ line: 11, ticks: 3 }] },
      { id: 4, callFrame: frame('helper', 'file:///app/node_modules/lib/index.js', 2), children: [5] },
      { id: 5, callFrame: frame('work', 'file:///app/main.js', 9), positionTicks: [{ line: 12, ticks: 1 }] },
      { id: 6, callFrame: frame('(idle)') },
      { id: 7, callFrame: frame('(garbage collector)') }
    ],
    startTime,
    endTime: startTime + 7000,
    samples: [3, 3, 6, 5, 3, 7, 6],
    timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000]
  }
}

test('merging chunks keeps every sample in order and merges the trees', () => {
  const merged = mergeProfiles([profile(0), profile(10_000)])
  assert.equal(merged.samples?.length, 14)
  assert.equal(merged.startTime, 0)
  assert.equal(merged.endTime, 17_000)
  // Same tree twice: no new nodes for the second chunk.
  assert.equal(merged.nodes.length, 7)
  const byId = new Map(merged.nodes.map((n) => [n.id, n]))
  const times = []
  let t = merged.startTime
  for (let i = 0; i < (merged.timeDeltas ?? []).length; i++) {
    t += /** @type {number[]} */ (merged.timeDeltas)[i]
    times.push(t)
  }
  assert.deepEqual(times, [1000, 2000, 3000, 4000, 5000, 6000, 7000, 11_000, 12_000, 13_000, 14_000, 15_000, 16_000, 17_000])
  const work = merged.nodes.find((n) => n.callFrame.functionName === 'work' && n.positionTicks?.[0].line === 11)
  assert.deepEqual(work?.positionTicks, [{ line: 11, ticks: 6 }])
  assert.equal(byId.get(1)?.callFrame.functionName, '(root)')
})

test('FlameData: idle left out, totals, categories, and app source lines', () => {
  const { data } = buildFlameData(profile(0), {
    title: 'node main.js',
    cwd: '/app',
    readSource: (path) => path === '/app/main.js' ? 'function main () {}\n' : null
  })
  const { nodes, frames, strings } = data
  assert.equal(data.meta.samples, 5)
  assert.equal(data.meta.idleSamples, 2)
  assert.equal(nodes.total[0], 5)
  const name = (/** @type {number} */ node) => strings[frames.name[nodes.frame[node]]]
  const main = nodes.frame.findIndex((_, i) => i > 0 && name(i) === 'main')
  assert.equal(nodes.total[main], 4)
  assert.equal(nodes.self[main], 0)
  // Preorder: every node after its parent.
  for (let i = 1; i < nodes.parent.length; i++) assert.ok(nodes.parent[i] < i)
  const category = (/** @type {string} */ fn) => CATEGORIES[frames.category[frames.name.findIndex((n) => strings[n] === fn)]]
  assert.equal(category('main'), 'app')
  assert.equal(category('helper'), 'deps')
  assert.equal(category('(garbage collector)'), 'gc')
  assert.equal(strings[frames.file[nodes.frame[main]]], 'main.js')
  const file = String(frames.file[nodes.frame[main]])
  assert.deepEqual(data.sources[file].lines, { 11: 3, 12: 1 })

  const hot = hotFunctions(data, 3)
  assert.equal(hot[0].name, 'work')
  assert.equal(hot[0].selfSamples, 4)
  assert.equal(hot[0].selfPercent, 80)
  assert.equal(hot[0].location, 'main.js:10')
})

test('collapsed stacks and pprof carry the same samples', () => {
  const { data, detail } = buildFlameData(profile(0), { title: 't', cwd: '/app' })
  const folded = toCollapsed(data).trim().split('\n').sort()
  assert.deepEqual(folded, [
    '(garbage collector) 1',
    'main main.js:1;helper /app/node_modules/lib/index.js:3;work main.js:10 1',
    'main main.js:1;work main.js:10 3'
  ])
  const decoded = Profile.decode(gunzipSync(toPprof(data, detail)))
  const samples = decoded.sample.map((s) => Number(s.value[0]))
  assert.equal(samples.reduce((a, b) => a + b, 0), 5)
  const fnNames = decoded.function.map((f) => decoded.stringTable.strings[Number(f.name)])
  assert.ok(fnNames.includes('work') && fnNames.includes('helper'))
})

test('malformed profiles: refused with a reason, or read without looping', () => {
  assert.match(String(whyNotProfile({ nodes: [{ id: 1, callFrame: { functionName: 'f' } }] })), /callFrame with functionName and url/)
  assert.match(String(whyNotProfile({ nodes: [{ id: 1, callFrame: frame('f'), children: ['2'] }] })), /children/)
  // A node listed below itself.
  const looped = {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2] },
      { id: 2, callFrame: frame('f', 'file:///a.js'), children: [2, 1] }
    ],
    startTime: 0,
    endTime: 2000,
    samples: [2, 2],
    timeDeltas: [1000, 1000]
  }
  assert.equal(whyNotProfile(looped), null)
  const merged = mergeProfiles([looped])
  assert.equal(merged.samples?.length, 2)
  const { data } = buildFlameData(looped, { title: 't', cwd: '/' })
  assert.equal(data.meta.samples, 2)
})

test('functions in one minified line stay apart, however far right they start', () => {
  const wide = {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 3] },
      { id: 2, callFrame: { functionName: 'parseHeaders', scriptId: '5', url: 'file:///b.js', lineNumber: 0, columnNumber: 65536 } },
      { id: 3, callFrame: { functionName: 'renderPage', scriptId: '5', url: 'file:///b.js', lineNumber: 1, columnNumber: 0 } }
    ],
    startTime: 0,
    endTime: 2000,
    samples: [2, 3],
    timeDeltas: [1000, 1000]
  }
  const merged = mergeProfiles([wide, wide])
  assert.deepEqual(merged.nodes.map((n) => n.callFrame.functionName).sort(), ['(root)', 'parseHeaders', 'renderPage'])
})
