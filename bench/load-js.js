#!/usr/bin/env node
/**
 * The JavaScript cost of one HTTP/1.1 response in dyno load, with no socket:
 * a connection is handed nginx's "hello world" response from its read
 * buffer again and again, and writes its next request to a stand-in handle.
 * What it leaves out (the kernel, Node's read callback) is the same for every
 * version of dyno, so this tells a change to the engine's JavaScript apart
 * in seconds, where a run against a server needs many paired rounds.
 *
 *   node bench/load-js.js [--against path/to/other/checkout] [--processes 6]
 *
 * Prints the fastest of several processes, each taking the fastest of its
 * rounds: the figure least disturbed by the rest of the machine.
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    processes: { type: 'string', default: '6' },
    child: { type: 'string' }
  }
})

if (values.child !== undefined) {
  console.log(await nsPerResponse(values.child))
} else {
  const here = fileURLToPath(new URL('..', import.meta.url))
  const roots = values.against === undefined ? [here] : [here, values.against]
  /** @type {Map<string, number>} */
  const best = new Map()
  for (let i = 0; i < Number(values.processes); i++) {
    for (const root of i % 2 === 0 ? roots : [...roots].reverse()) {
      const ns = Number(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', root], { encoding: 'utf8' }))
      best.set(root, Math.min(best.get(root) ?? Infinity, ns))
    }
  }
  for (const [root, ns] of best) console.log(`${ns.toFixed(1).padStart(7)} ns per response  ${root}`)
}

/** @param {string} root a dyno checkout @returns {Promise<number>} */
async function nsPerResponse (root) {
  const from = (/** @type {string} */ file) => import(pathToFileURL(`${root}/lib/load/${file}`).href)
  const { resolveOptions } = await from('options.js')
  const { engineConfig } = await from('config.js')
  const { LoadEngine } = await from('engine.js')
  const { Connection } = await from('connection.js')
  const options = resolveOptions({ url: 'http://127.0.0.1:8080/', connections: 1, amount: 1e12, duration: 1e6 })
  const engine = new LoadEngine(engineConfig(options, [{}], 0, 1))
  engine.clock.wanted = false
  const connection = new Connection(engine.wire, engine.scheduler, engine)
  let writes = 0
  const handle = { writeBuffer () { writes++; return 0 } }
  connection.socket = { _handle: handle, connecting: false, destroyed: false, writableLength: 0, writableCorked: 0, write () { writes++ } }
  connection.connected = true
  connection.now = performance.now()
  connection.pump()
  const response = 'HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Fri, 27 Nov 2026 03:03:23 GMT\r\n' +
    'Content-Type: text/plain\r\nContent-Length: 11\r\nConnection: keep-alive\r\n\r\nhello world'
  const buffer = engine.wire.readBuffer
  const n = buffer.write(response, 0, 'latin1')
  const perRound = 1e6
  let fastest = Infinity
  for (let round = 0; round < 8; round++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < perRound; i++) connection.onRead(n, buffer)
    const ns = Number(process.hrtime.bigint() - start) / perRound
    // The first rounds run while V8 still optimizes.
    if (round >= 2) fastest = Math.min(fastest, ns)
  }
  if (engine.responses !== 8 * perRound || writes !== 8 * perRound + 1) {
    throw new Error(`expected ${8 * perRound} responses and writes, got ${engine.responses} and ${writes}`)
  }
  return fastest
}
