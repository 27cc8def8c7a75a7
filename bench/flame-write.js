#!/usr/bin/env node
/**
 * How long dyno takes to turn a 10-minute profile into its run folder: the
 * chunks the agent writes (10, 20 and 40 s, then a minute each; 600k
 * samples at 1 ms, tens of thousands of distinct functions, a few hundred
 * thousand call-tree nodes), merged, then written as .cpuprofile, pprof,
 * collapsed stacks and flamegraph.html.
 *
 *   node bench/flame-write.js [--functions 40000] [--tree 250000]
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { FILES, renderFolder } from '../lib/kinds/flame/folder.js'
import { mergedProfile } from '../lib/cpu-profile/profile-files.js'
import { readProcesses } from '../lib/observe/processes.js'

const { values } = parseArgs({ options: { functions: { type: 'string', default: '40000' }, tree: { type: 'string', default: '250000' } } })
const FUNCTIONS = Number(values.functions)
const TREE = Number(values.tree)
// Chunk lengths in seconds, as lib/agent/session.cjs grows them, up to 10 minutes.
const chunkSeconds = [10, 20, 40]
while (chunkSeconds.reduce((a, b) => a + b, 0) < 600) chunkSeconds.push(Math.min(60, 600 - chunkSeconds.reduce((a, b) => a + b, 0)))
const CHUNKS = chunkSeconds.length

let seed = 42
const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647

// One program's call tree: a node's parent is chosen with a bias to the
// early nodes, so stacks run deep along hot paths, as in a real server.
const frameOf = new Int32Array(TREE)
const parentOf = new Int32Array(TREE).fill(-1)
for (let i = 1; i < TREE; i++) {
  parentOf[i] = Math.floor(random() ** 0.6 * i)
  frameOf[i] = Math.floor(random() ** 2 * FUNCTIONS)
}
const callFrame = (/** @type {number} */ i) => i === 0
  ? { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }
  : { functionName: `handler${frameOf[i]}`, scriptId: String(frameOf[i] % 700), url: `file:///srv/app/lib/module${frameOf[i] % 700}.js`, lineNumber: frameOf[i] % 900, columnNumber: 10 }

const folder = mkdtempSync(join(tmpdir(), 'dyno-bench-write-'))
const raw = join(folder, 'raw')
mkdirSync(raw)
const pid = 4242
writeFileSync(join(raw, `${pid}.process.json`), JSON.stringify({ pid, ppid: 1, argv: ['node', 'app.js'], execArgv: [], cwd: '/srv/app', node: process.versions.node, v8: process.versions.v8, startedAt: new Date().toISOString() }))
let nodeCount = 0
let chunkStart = 0
for (let c = 0; c < CHUNKS; c++) {
  const perChunk = chunkSeconds[c] * 1000
  // A chunk holds the nodes on the paths its samples took, as V8 writes it.
  /** @type {Map<number, { id: number, callFrame: object, hitCount: number, children: number[] }>} */
  const nodes = new Map()
  const ensure = (/** @type {number} */ i) => {
    let node = nodes.get(i)
    if (node) return node
    node = { id: i + 1, callFrame: callFrame(i), hitCount: 0, children: [] }
    nodes.set(i, node)
    if (i > 0) ensure(parentOf[i]).children.push(i + 1)
    return node
  }
  ensure(0)
  const samples = []
  for (let s = 0; s < perChunk; s++) {
    const i = 1 + Math.floor(random() ** 1.3 * (TREE - 1))
    ensure(i).hitCount++
    samples.push(i + 1)
  }
  nodeCount += nodes.size
  writeFileSync(join(raw, `${pid}.cpu.${c}.cpuprofile`), JSON.stringify({
    nodes: [...nodes.values()],
    startTime: chunkStart,
    endTime: (chunkStart += chunkSeconds[c] * 1_000_000),
    samples,
    timeDeltas: samples.map(() => 1000)
  }))
}
writeFileSync(join(folder, FILES.meta), JSON.stringify({ schemaVersion: 1, command: 'flame', title: 'node app.js (synthetic 10-minute profile)', cwd: '/srv/app', startedAt: new Date().toISOString() }))
console.log(`${CHUNKS} chunks, 600000 samples, ${FUNCTIONS} functions, ${nodeCount} chunk nodes in all`)

const started = performance.now()
const [processRecord] = readProcesses(folder)
const profile = mergedProfile(processRecord)
const merged = performance.now()
writeFileSync(join(folder, FILES.profile), JSON.stringify(profile))
const written = performance.now()
const { data } = renderFolder(folder, profile)
const rendered = performance.now()
const size = (/** @type {string} */ name) => `${(statSync(join(folder, name)).size / 1e6).toFixed(1)} MB`
console.log(`merged ${profile.nodes.length} nodes in ${((merged - started) / 1000).toFixed(2)} s`)
console.log(`.cpuprofile written in ${((written - merged) / 1000).toFixed(2)} s (${size(FILES.profile)})`)
console.log(`report, pprof and collapsed stacks in ${((rendered - written) / 1000).toFixed(2)} s: ${data.frames.name.length} frames, ${data.nodes.frame.length} nodes; html ${size(FILES.html)}, pprof ${size(FILES.pprof)}, folded ${size(FILES.collapsed)}`)
console.log(`total ${((rendered - started) / 1000).toFixed(2)} s`)
if (process.env.KEEP) console.log(folder); else rmSync(folder, { recursive: true, force: true })
