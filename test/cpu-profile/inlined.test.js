import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildFlameData } from '../../lib/cpu-profile/build-flame-data.js'
import { scriptExtents } from '../../lib/cpu-profile/inlined.js'

// Recorded shape of a Node 20/24 profile: V8 inlined `burn` into `handler`
// and the profiler reports burn's samples in handler's frame, on burn's lines.
const APP = [
  'function burn (n) {',
  '  let x = 0',
  '  for (let i = 0; i < n; i++) x += Math.sqrt(i)',
  '  return x',
  '}',
  'function handler () {',
  '  const list = [1, 2, 3].map((v) => {',
  '    return v * 2',
  '  })',
  '  return burn(1e6) + list.length',
  '}',
  ''
].join('\n')

/** @param {string} text @param {string} from @param {string} to the last characters of the function */
const extent = (text, from, to) => {
  const start = text.indexOf(from)
  return /** @type {[string, number, number]} */ ([from.split(/[ (]/)[1] || '', start, text.indexOf(to, start) + to.length])
}

const appFunctions = [
  extent(APP, 'function burn', 'return x\n}'),
  extent(APP, 'function handler', '+ list.length\n}'),
  /** @type {[string, number, number]} */ (['', APP.indexOf('(v) =>'), APP.indexOf('v * 2') + 9])
]

/** @param {string} functionName @param {string} url @param {number} lineNumber 0-based */
const frame = (functionName, url, lineNumber, columnNumber = 14) => ({ functionName, scriptId: '9', url, lineNumber, columnNumber })

/** @param {import('../../lib/cpu-profile/flame-data.js').FlameData} data @param {string} name */
function selfOf (data, name) {
  let self = 0
  let inlined = 0
  data.nodes.frame.forEach((f, i) => {
    if (f >= 0 && data.strings[data.frames.name[f]] === name) {
      self += data.nodes.self[i]
      inlined += data.nodes.inlined[i]
    }
  })
  return { self, inlined }
}

test('samples of a function inlined into its caller go back to the function', () => {
  const url = 'file:///app/server.js'
  const profile = {
    nodes: [
      { id: 1, callFrame: frame('(root)', '', -1), children: [2] },
      { id: 2, callFrame: frame('handler', url, 5, 17), positionTicks: [{ line: 3, ticks: 80 }, { line: 4, ticks: 5 }, { line: 8, ticks: 6 }, { line: 10, ticks: 9 }] }
    ],
    startTime: 0,
    endTime: 100_000,
    samples: Array(100).fill(2),
    timeDeltas: Array(100).fill(1000)
  }
  const { data: plain } = buildFlameData(profile, { title: 't', cwd: '/app' })
  assert.equal(selfOf(plain, 'handler').self, 100)

  const scripts = new Map([[url, scriptExtents(APP, appFunctions)]])
  const { data } = buildFlameData(profile, { title: 't', cwd: '/app', scripts })
  assert.deepEqual(selfOf(data, 'burn'), { self: 85, inlined: 1 })
  // The closure inside handler (line 8) was inlined too.
  assert.deepEqual(selfOf(data, '(anonymous)'), { self: 6, inlined: 1 })
  assert.equal(selfOf(data, 'handler').self, 9)
  assert.equal(data.nodes.total[0], 100)
  // burn sits under handler, as a call would.
  const burn = data.nodes.frame.findIndex((f) => f >= 0 && data.strings[data.frames.name[f]] === 'burn')
  assert.equal(data.strings[data.frames.name[data.nodes.frame[data.nodes.parent[burn]]]], 'handler')
})

test('a callee from another file gets its lines back when it was seen called from the frame', () => {
  const app = 'file:///app/server.js'
  const lib = 'file:///app/node_modules/lib/index.js'
  const LIB = 'module.exports = function burn (n) {\n  let x = 0\n  for (let i = 0; i < n; i++) x += i\n  return x\n}\n'
  const profile = {
    nodes: [
      { id: 1, callFrame: frame('(root)', '', -1), children: [2] },
      { id: 2, callFrame: frame('handler', app, 5, 17), children: [3], positionTicks: [{ line: 3, ticks: 40 }, { line: 10, ticks: 10 }] },
      // Before it was optimized, handler called burn for real: a frame of its own.
      { id: 3, callFrame: frame('burn', lib, 0, 30), positionTicks: [{ line: 3, ticks: 5 }] }
    ],
    startTime: 0,
    endTime: 55_000,
    samples: [...Array(50).fill(2), ...Array(5).fill(3)],
    timeDeltas: Array(55).fill(1000)
  }
  // In this app, line 3 is in a function of its own, which handler never called.
  const OTHER = APP.replace('function burn', 'function unrelated')
  const scripts = new Map([
    [app, scriptExtents(OTHER, [extent(OTHER, 'function unrelated', 'return x\n}'), extent(OTHER, 'function handler', '+ list.length\n}')])],
    [lib, scriptExtents(LIB, [['burn', LIB.indexOf('function burn'), LIB.length - 1]])]
  ])
  const { data } = buildFlameData(profile, { title: 't', cwd: '/app', scripts })
  // handler was seen calling lib's burn, whose line 3 is in its body.
  const libBurn = data.nodes.frame.findIndex((f) => f >= 0 && data.strings[data.frames.file[f]] === '/app/node_modules/lib/index.js')
  assert.equal(data.nodes.self[libBurn], 45)
  assert.equal(data.nodes.inlined[libBurn], 1)
  assert.equal(selfOf(data, 'handler').self, 10)
})
