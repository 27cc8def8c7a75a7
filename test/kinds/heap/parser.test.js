import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { test } from 'node:test'
import { SectionReader } from '../../../lib/kinds/heap/snapshot/json-sections.js'
import { readSnapshot } from '../../../lib/kinds/heap/snapshot/read-snapshot.js'
import { MAX_STRING_BYTES, StringTable } from '../../../lib/kinds/heap/snapshot/string-table.js'
import { nodeBinaries, takeSnapshots } from '../../helpers/heap-snapshots.js'

/** @typedef {import('../../../lib/errors.js').DynoError} DynoError */

const KNOWN_HEAP = `
class Marker { constructor (i) { this.i = i; this.label = 'marker-' + i } }
globalThis.kept = Array.from({ length: 250 }, (_, i) => new Marker(i))
globalThis.keptFn = function namedClosure () { return kept.length }
snapshot()
`

/**
 * The same facts read the slow, obvious way: JSON.parse of the whole file.
 * @param {string} path
 */
function reference (path) {
  const json = JSON.parse(readFileSync(path, 'utf8'))
  const { meta } = json.snapshot
  const fields = meta.node_fields.length
  const types = meta.node_types[0]
  const markers = []
  for (let i = 0; i < json.nodes.length; i += fields) {
    if (types[json.nodes[i + meta.node_fields.indexOf('type')]] === 'object' && json.strings[json.nodes[i + meta.node_fields.indexOf('name')]] === 'Marker') {
      markers.push({ id: json.nodes[i + meta.node_fields.indexOf('id')], self: json.nodes[i + meta.node_fields.indexOf('self_size')] })
    }
  }
  return { nodes: json.nodes.length / fields, edges: json.edges.length / meta.edge_fields.length, strings: json.strings.length, markers, json }
}

for (const node of nodeBinaries()) {
  const [path] = takeSnapshots(KNOWN_HEAP, node)
  const version = node === process.execPath ? `Node ${process.version}` : basename(dirname(dirname(node)))

  test(`snapshots of ${version} read as JSON.parse reads them`, async () => {
    const expected = reference(path)
    const s = await readSnapshot(path)
    assert.equal(s.nodeCount, expected.nodes)
    assert.equal(s.edgeCount, expected.edges)
    assert.equal(s.strings.count, expected.strings)
    const markers = []
    for (let v = 0; v < s.nodeCount; v++) {
      if (s.nodeType[v] === s.types.object && s.name(v) === 'Marker') markers.push({ id: s.nodeId[v], self: s.nodeSelf[v] })
    }
    assert.equal(markers.length, 250)
    assert.deepEqual(markers, expected.markers)
    // Every string decodes to what JSON.parse gives, up to the kept length.
    let truncated = 0
    for (let i = 0; i < s.strings.count; i++) {
      const want = expected.json.strings[i]
      const got = s.strings.get(i)
      if (!s.strings.truncated(i)) {
        assert.equal(got, want)
        continue
      }
      truncated++
      assert.ok(got.endsWith('…') && want.startsWith(got.slice(0, -1)), `string ${i} starts as it should`)
      assert.ok(Buffer.byteLength(want) > MAX_STRING_BYTES / 6)
    }
    assert.ok(truncated > 0, 'the snapshot has long strings (module sources), kept in part')
    // Edges land on the nodes JSON.parse says, and closures keep their location.
    const fields = expected.json.snapshot.meta.node_fields.length
    const toField = expected.json.snapshot.meta.edge_fields.indexOf('to_node')
    for (let e = 0; e < s.edgeCount; e += 997) assert.equal(s.edgeTo[e], expected.json.edges[e * expected.json.snapshot.meta.edge_fields.length + toField] / fields)
    let closure = 0
    while (!(s.nodeType[closure] === s.types.closure && s.name(closure) === 'namedClosure')) closure++
    assert.ok(s.location(closure), 'the closure has a location')
  })
}

test('chunks of any size read the same, escapes and all', async () => {
  const text = JSON.stringify({
    snapshot: { meta: { node_fields: ['type', 'name', 'id', 'self_size', 'edge_count'], node_types: [['hidden', 'object']], edge_fields: ['type', 'name_or_index', 'to_node'], edge_types: [['element', 'property']] }, node_count: 2, edge_count: 1 },
    nodes: [1, 0, 1, 0, 1, 1, 1, 3, 24, 0],
    edges: [1, 2, 5],
    trace_tree: [1, 2, [3, [4]]],
    samples: [],
    strings: ['', 'Obj "quoted" \\ back', 'key\u2028with ünïcode and \\"\\\\', 'x'.repeat(3000)]
  }, null, 1)
  for (const size of [1, 2, 3, 7, 64]) {
    /** @type {(string | number)[]} */
    const keys = []
    const table = new StringTable()
    /** @type {number[]} */
    const numbers = []
    const reader = new SectionReader((key) => {
      keys.push(key)
      if (key === 'strings') return { kind: 'strings', table }
      if (key === 'nodes' || key === 'edges') return { kind: 'numbers', sink: (batch, n) => numbers.push(...batch.subarray(0, n)) }
      if (key === 'snapshot') return { kind: 'json', done: (value) => keys.push(JSON.stringify(value).length) }
      return { kind: 'skip' }
    })
    const bytes = Buffer.from(text)
    for (let i = 0; i < bytes.length; i += size) reader.push(bytes.subarray(i, i + size))
    assert.ok(reader.done)
    assert.deepEqual(numbers, [1, 0, 1, 0, 1, 1, 1, 3, 24, 0, 1, 2, 5])
    table.finish()
    assert.equal(table.get(1), 'Obj "quoted" \\ back')
    assert.equal(table.get(2), 'key\u2028with ünïcode and \\"\\\\')
    assert.equal(table.get(3), 'x'.repeat(MAX_STRING_BYTES) + '…')
    assert.deepEqual(keys.filter((k) => typeof k === 'string'), ['snapshot', 'nodes', 'edges', 'trace_tree', 'samples', 'strings'])
  }
})

test('a file that is not a snapshot, or is cut short, is refused in one line', async () => {
  const [path] = takeSnapshots('snapshot()')
  const cut = join(dirname(path), 'cut.heapsnapshot')
  writeFileSync(cut, readFileSync(path).subarray(0, 200_000))
  await assert.rejects(readSnapshot(cut), (/** @type {DynoError} */ err) => err.code === 'DYNO_BAD_SNAPSHOT' && err.exitCode === 2 && /ends before the snapshot does/.test(err.message))
  const notOne = join(dirname(path), 'profile.heapsnapshot')
  writeFileSync(notOne, JSON.stringify({ nodes: [], startTime: 0 }))
  await assert.rejects(readSnapshot(notOne), (/** @type {DynoError} */ err) => err.code === 'DYNO_BAD_SNAPSHOT' && /"nodes" comes before "snapshot"/.test(err.message))
  await assert.rejects(readSnapshot(join(dirname(path), 'missing.heapsnapshot')), (/** @type {DynoError} */ err) => err.code === 'DYNO_BAD_FILE')
})

test('a snapshot larger than the memory at hand is refused before anything is allocated', async () => {
  const [path] = takeSnapshots('snapshot()')
  await assert.rejects(readSnapshot(path, { availableBytes: 10_000_000 }), (/** @type {DynoError} */ err) => {
    assert.equal(err.code, 'DYNO_HEAP_TOO_LARGE')
    assert.equal(err.exitCode, 2)
    assert.match(err.message, /holds [\d,]+ objects and [\d,]+ references: analysing it needs about [\d.]+ MB of memory and 10 MB is available/)
    return true
  })
})
