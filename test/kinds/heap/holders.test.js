/**
 * What holds a growing class, named as its developer knows it: the
 * variable, and Map entries, Set entries, array items, an object's keys or
 * an emitter's listeners, with the line the variable is declared on.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { analyzeHeap } from '../../../lib/kinds/heap/analyze.js'
import { takeSnapshots } from '../../helpers/heap-snapshots.js'
import { dirname } from 'node:path'

const APP = `const { EventEmitter } = require('node:events')
class InMap { constructor (i) { this.i = i } }
class InSet { constructor (i) { this.i = i } }
class InArray { constructor (i) { this.i = i } }
class InKeys { constructor (i) { this.i = i } }
class InListener { constructor (i) { this.i = i } }
class InChain { constructor (i) { this.i = i } }
const byId = new Map()
const seen = new Set()
const queue = []
const cache = {}
const hub = new EventEmitter()
hub.setMaxListeners(0)
const app = { state: { sessions: new Map() } }
function add (i) {
  byId.set('k' + i, new InMap(i))
  seen.add(new InSet(i))
  queue.push(new InArray(i))
  cache['key' + i] = new InKeys(i)
  const listener = new InListener(i)
  hub.on('tick', () => listener.i)
  app.state.sessions.set(i, new InChain(i))
}
globalThis.keep = () => [byId, seen, queue, cache, hub, app]
module.exports = { add }
`

test('Map and Set entries, array items, keys and listeners, each by its variable and line', async () => {
  const [before, after] = takeSnapshots(`
    const file = require('path').join(require('os').tmpdir(), 'dyno-holders-' + process.pid + '.js')
    require('fs').writeFileSync(file, ${JSON.stringify(APP)})
    const { add } = require(file)
    require('fs').rmSync(file)
    snapshot()
    for (let i = 0; i < 400; i++) add(i)
    snapshot()
  `)
  const { leaks } = await analyzeHeap([before, after], { cwd: dirname(before), readSource: (path) => path.includes('dyno-holders-') ? APP : null })
  const held = Object.fromEntries(leaks.map((leak) => [leak.constructor, `${leak.holder} (${String(leak.location).replace(/^.*dyno-holders-\d+\.js/, 'app.js')})`]))
  assert.deepEqual(held, {
    InMap: '`byId` Map entries (app.js:8)',
    InSet: '`seen` Set entries (app.js:9)',
    InArray: '`queue` array items (app.js:10)',
    InKeys: '`cache` properties (app.js:11)',
    InListener: '`hub` listeners for \'tick\' (app.js:12)',
    InChain: '`app.state.sessions` Map entries (app.js:14)'
  })
  for (const leak of leaks) assert.equal(leak.countDelta, 400)
})

test('a property of the global object is named as the variable it is, on every Node line', async () => {
  // V8 14 (Node 26) names the global object `global (global*)` and reaches it from its native context.
  const [before, after] = takeSnapshots(`
    class InGlobal { constructor (i) { this.i = i } }
    globalThis.registry = {}
    snapshot()
    for (let i = 0; i < 300; i++) registry['k' + i] = new InGlobal(i)
    snapshot()
  `)
  const { leaks } = await analyzeHeap([before, after], { cwd: dirname(before), readSource: () => null })
  assert.deepEqual(leaks.map((leak) => [leak.constructor, leak.holder]), [['InGlobal', '`registry` properties']])
})

test('what dyno\'s agent holds under its own symbols is not the holder: the app\'s variable is', async () => {
  // The agent's count of the requests in flight reaches their objects in fewer steps than the app's own.
  const [before, after] = takeSnapshots(`
    class Held { constructor (i) { this.i = i } }
    globalThis.app = { state: { pending: { items: [] } } }
    globalThis[Symbol.for('dyno.openRequests')] = []
    snapshot()
    for (let i = 0; i < 300; i++) {
      const held = new Held(i)
      app.state.pending.items.push(held)
      globalThis[Symbol.for('dyno.openRequests')].push(held)
    }
    snapshot()
  `)
  const { leaks } = await analyzeHeap([before, after], { cwd: dirname(before), readSource: () => null })
  assert.deepEqual(leaks.map((leak) => [leak.constructor, leak.holder]), [['Held', '`app.state.pending.items` array items']])
})
