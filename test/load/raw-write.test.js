import assert from 'node:assert/strict'
import { test } from 'node:test'
import { load } from '../../lib/index.js'
import { engineConfig } from '../../lib/load/config.js'
import { Connection } from '../../lib/load/connection.js'
import { LoadEngine } from '../../lib/load/engine.js'
import { resolveOptions } from '../../lib/load/options.js'
import { mergeResults } from '../../lib/kinds/merge/merge.js'
import { runDyno } from '../helpers/cli.js'
import { startHttpServer } from '../helpers/servers.js'

test('a run says whether it wrote past the sockets\' streams: it does on this Node', async (t) => {
  const server = await startHttpServer((req, res) => res.end('ok'))
  t.after(server.close)
  const result = await load({ url: server.url, amount: 50, connections: 2 })
  assert.equal(result.requests.completed, 50)
  assert.equal(result.generator.rawWrite, true)
})

test('under --pending-deprecation a run writes through the streams, says so, and warns of nothing', async (t) => {
  const server = await startHttpServer((req, res) => res.end('ok'))
  t.after(server.close)
  const run = await runDyno(['load', '-a', '50', '-c', '2', '--json', server.url], { env: { NODE_OPTIONS: '--pending-deprecation' } })
  assert.equal(run.stderr, '')
  assert.equal(run.code, 0)
  const result = JSON.parse(run.stdout)
  assert.equal(result.requests.completed, 50)
  assert.equal(result.generator.rawWrite, false)
})

test('merged generators wrote raw only when each did; an older result does not say', async (t) => {
  const server = await startHttpServer((req, res) => res.end('ok'))
  t.after(server.close)
  const raw = await load({ url: server.url, amount: 10, connections: 1 })
  const stream = { ...raw, generator: { ...raw.generator, rawWrite: false } }
  const older = { ...raw, generator: { ...raw.generator, rawWrite: null } }
  const merge = (/** @type {import('../../lib/load/summary.js').LoadResult[]} */ results) =>
    mergeResults(results.map((result, i) => ({ name: `g${i}`, result }))).generator.rawWrite
  assert.equal(merge([raw, raw]), true)
  assert.equal(merge([raw, stream]), false)
  assert.equal(merge([raw, older]), null)
})

/**
 * A connection of a real engine on a stand-in socket that records which
 * way each request left: through the stream or past it, to the handle.
 * @param {import('../../lib/load/request.js').RequestSpec[]} requests @param {number} pipelining
 */
function recordingConnection (requests, pipelining) {
  const options = resolveOptions({ url: 'http://127.0.0.1:8080/', connections: 1, pipelining, amount: 100 })
  const engine = new LoadEngine(engineConfig(options, requests, 0, 1))
  engine.clock.wanted = false
  const connection = new Connection(engine.wire, engine.scheduler, engine)
  /** @type {string[]} */
  const ways = []
  const handle = { writeBuffer () { ways.push('handle'); return 0 } }
  connection.socket = /** @type {any} */ ({ _handle: handle, connecting: false, cork () {}, uncork () {}, write () { ways.push('stream') } })
  connection.connected = true
  const respond = () => {
    const buffer = engine.wire.readBuffer
    connection.onRead(buffer.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok', 0, 'latin1'), buffer)
  }
  return { connection, ways, respond }
}

test('a connection writes past its socket\'s stream until it writes through it once; then always through it, to keep the order', () => {
  const fresh = recordingConnection([{}], 1)
  fresh.connection.pump()
  fresh.respond()
  assert.deepEqual(fresh.ways, ['handle', 'handle'])

  // The first write could not go past the stream (the socket said it was
  // still connecting); its bytes may still wait there, so the next one
  // queues behind them even though the handle is free by then.
  const once = recordingConnection([{}], 1)
  const socket = /** @type {any} */ (once.connection.socket)
  socket.connecting = true
  once.connection.pump()
  socket.connecting = false
  once.respond()
  assert.deepEqual(once.ways, ['stream', 'stream'])

  // Different requests, two in flight: each batch is corked, in the stream.
  const corked = recordingConnection([{ path: '/a' }, { path: '/b' }], 2)
  corked.connection.pump()
  corked.respond()
  corked.respond()
  assert.deepEqual(corked.ways, ['stream', 'stream', 'stream', 'stream'])
})
