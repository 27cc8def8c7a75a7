import assert from 'node:assert/strict'
import { test } from 'node:test'
import { analyzeHeap } from '../../../lib/kinds/heap/analyze.js'
import { computeDominators } from '../../../lib/kinds/heap/snapshot/dominators.js'
import { readSnapshot } from '../../../lib/kinds/heap/snapshot/read-snapshot.js'
import { takeSnapshots } from '../../helpers/heap-snapshots.js'

const options = { cwd: process.cwd(), readSource: () => null }

// A heap whose changes are known: 1,000 objects added, 300 of 500 freed,
// 200 replaced by 200 others of the same class, and one class untouched.
const KNOWN_CHANGES = `
class Added { constructor (i) { this.i = i } }
class Removed { constructor (i) { this.i = i } }
class Replaced { constructor (i) { this.i = i } }
class Untouched { constructor (i) { this.i = i } }
globalThis.removed = Array.from({ length: 500 }, (_, i) => new Removed(i))
globalThis.replaced = Array.from({ length: 200 }, (_, i) => new Replaced(i))
globalThis.untouched = Array.from({ length: 100 }, (_, i) => new Untouched(i))
globalThis.added = []
snapshot()
for (let i = 0; i < 1000; i++) added.push(new Added(i))
removed.length = 200
replaced = Array.from({ length: 200 }, (_, i) => new Replaced(i))
snapshot()
`

test("the comparison counts what DevTools' Comparison view counts, matched by id", async () => {
  const [before, after] = takeSnapshots(KNOWN_CHANGES)
  const { comparison, snapshots } = await analyzeHeap([before, after], options)
  const row = (/** @type {string} */ name) => comparison.find((r) => r.name === name)
  const self = await instanceSize(after, 'Added')
  assert.deepEqual(pick(row('Added')), { newCount: 1000, deletedCount: 0, countDelta: 1000, allocSize: 1000 * self, freedSize: 0, sizeDelta: 1000 * self })
  assert.deepEqual(pick(row('Removed')), { newCount: 0, deletedCount: 300, countDelta: -300, allocSize: 0, freedSize: 300 * self, sizeDelta: -300 * self })
  assert.deepEqual(pick(row('Replaced')), { newCount: 200, deletedCount: 200, countDelta: 0, allocSize: 200 * self, freedSize: 200 * self, sizeDelta: 0 })
  assert.deepEqual(pick(row('Untouched')), { newCount: 0, deletedCount: 0, countDelta: 0, allocSize: 0, freedSize: 0, sizeDelta: 0 })
  assert.deepEqual([row('Added')?.countBefore, row('Added')?.countAfter], [0, 1000])
  // Each Added object retains itself alone; the class retains all of them.
  assert.equal(row('Added')?.retainedDelta, 1000 * self)
  // Rows come largest size delta first, and every object of the later snapshot is in one row.
  assert.equal(comparison[0].sizeDelta, Math.max(...comparison.map((r) => r.sizeDelta)))
  assert.equal(snapshots.length, 2)
})

test('the diff of a snapshot with itself is empty', async () => {
  const [path] = takeSnapshots('globalThis.kept = Array.from({ length: 3000 }, (_, i) => ({ i })); snapshot()')
  const { comparison, leaks, growing } = await analyzeHeap([path, path], options)
  assert.ok(comparison.length > 10)
  for (const row of comparison) {
    assert.deepEqual([row.newCount, row.deletedCount, row.sizeDelta, row.retainedDelta], [0, 0, 0, 0], row.name)
  }
  assert.deepEqual(growing, [])
  assert.deepEqual(leaks, [])
})

test('dominators and retained sizes agree with the iterative algorithm of Cooper, Harvey and Kennedy', async () => {
  const [path] = takeSnapshots(`
    const shared = { big: 'x'.repeat(10000) }
    globalThis.a = { shared, own: new Array(100).fill(1) }
    globalThis.b = { shared }
    globalThis.chain = { next: { next: { next: { leaf: new Uint8Array(4096) } } } }
    snapshot()`)
  const s = await readSnapshot(path)
  const { idom, retained } = computeDominators(s)
  const expected = simpleDominators(s)
  let differ = 0
  for (let v = 0; v < s.nodeCount; v++) if (idom[v] !== expected[v]) differ++
  assert.equal(differ, 0)
  let total = 0
  for (let v = 0; v < s.nodeCount; v++) total += s.nodeSelf[v]
  assert.equal(retained[0], total, 'the root retains everything')
})

/** @param {any} row */
function pick (row) {
  const { newCount, deletedCount, countDelta, allocSize, freedSize, sizeDelta } = row
  return { newCount, deletedCount, countDelta, allocSize, freedSize, sizeDelta }
}

/** The self size of one instance of a class (all instances of these classes have the same). @param {string} path @param {string} name */
async function instanceSize (path, name) {
  const s = await readSnapshot(path)
  const sizes = new Set()
  for (let v = 0; v < s.nodeCount; v++) if (s.nodeType[v] === s.types.object && s.name(v) === name) sizes.add(s.nodeSelf[v])
  assert.equal(sizes.size, 1)
  return /** @type {number} */ ([...sizes][0])
}

/**
 * Immediate dominators the slow, plain way: iterate to a fixed point over
 * reverse postorder (Cooper, Harvey, Kennedy), on the edges that hold.
 * @param {import('../../../lib/kinds/heap/snapshot/snapshot.js').HeapSnapshot} s
 */
function simpleDominators (s) {
  const n = s.nodeCount
  const holds = (/** @type {number} */ v, /** @type {number} */ e) => s.edgeType[e] !== s.edges.weak && (s.edgeType[e] !== s.edges.shortcut || v === 0)
  const postorder = new Int32Array(n).fill(-1)
  const order = []
  const seen = new Uint8Array(n)
  const preds = Array.from({ length: n }, () => /** @type {number[]} */ ([]))
  const visit = (/** @type {number} */ start) => {
    const stack = [[start, s.firstEdge[start]]]
    seen[start] = 1
    while (stack.length > 0) {
      const top = stack[stack.length - 1]
      const [v, e] = top
      if (e < s.firstEdge[v + 1]) {
        top[1]++
        if (!holds(v, e)) continue
        const w = s.edgeTo[e]
        if (!seen[w]) {
          seen[w] = 1
          stack.push([w, s.firstEdge[w]])
        }
      } else {
        postorder[v] = order.length
        order.push(v)
        stack.pop()
      }
    }
  }
  for (let v = 0; v < n; v++) for (let e = s.firstEdge[v]; e < s.firstEdge[v + 1]; e++) if (holds(v, e)) preds[s.edgeTo[e]].push(v)
  visit(0)
  // What the root does not reach hangs from it.
  for (let v = 1; v < n; v++) {
    if (seen[v]) continue
    preds[v].push(0)
    visit(v)
  }
  postorder[0] = order.length
  order.push(0)
  const idom = new Int32Array(n).fill(-1)
  idom[0] = 0
  const intersect = (/** @type {number} */ a, /** @type {number} */ b) => {
    while (a !== b) {
      while (postorder[a] < postorder[b]) a = idom[a]
      while (postorder[b] < postorder[a]) b = idom[b]
    }
    return a
  }
  for (let changed = true; changed;) {
    changed = false
    for (let i = order.length - 1; i >= 0; i--) {
      const v = order[i]
      if (v === 0) continue
      let next = -1
      for (const p of preds[v]) if (idom[p] !== -1) next = next === -1 ? p : intersect(p, next)
      if (idom[v] !== next) {
        idom[v] = next
        changed = true
      }
    }
  }
  return idom
}
