// The async tracer in this process, on real servers and a real connection
// opened before any request: which requests it traces, and how it follows a
// request's waits on that connection.
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { once } from 'node:events'
import http from 'node:http'
import net from 'node:net'
import { test } from 'node:test'
import { analyzeAsync } from '../../../lib/kinds/async/analyze.js'
import { parseAsyncData } from '../../../lib/kinds/async/data.js'
import { load } from '../../../lib/index.js'
import { onceWithin } from '../../helpers/wait.js'

const { startTracer } = createRequire(import.meta.url)('../../../lib/agent/async-tracer.cjs')

/**
 * A server on a free port whose every request runs `handler`, traced by a
 * tracer with `options`; `finish()` stops both and hands over what was traced.
 * @param {object} options
 * @param {http.RequestListener} handler
 */
async function tracedServer (options, handler) {
  let text = ''
  /** @type {any} */
  let counts = null
  const tracer = startTracer(options, (/** @type {string} */ lines, /** @type {any} */ c) => {
    text += lines
    counts = c
  })
  const server = http.createServer(handler)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const url = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/`
  return {
    url,
    async finish () {
      tracer.flush(true)
      server.close()
      server.closeAllConnections()
      await onceWithin(server, 'close', { what: 'the traced server\'s close' })
      return { text, counts }
    }
  }
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

test('after the first minTraced, one request in `sample` is traced, and side by side fewer, so that no more than one in `sample` runs under the hooks', async () => {
  const sample = 4
  const connections = 8
  const requests = 200
  const server = await tracedServer({ sample, perSecond: 0, minTraced: 0 }, async (req, res) => {
    await sleep(2)
    res.end('ok')
  })
  await load({ url: server.url, connections, amount: requests })
  const { counts } = await server.finish()
  assert.equal(counts.requests, requests)
  assert.ok(counts.traced >= 1 && counts.traced < requests / sample / 2, `${counts.traced} traced`)
  // Each trace lets the requests beside it run under the hooks: at most the share allowed, and those of the last trace.
  assert.ok(counts.hooked <= requests / sample + connections, `${counts.hooked} hooked`)
})

test('the first minTraced requests are traced one after another, whatever the share and the concurrency', async () => {
  const server = await tracedServer({ sample: 1000, perSecond: 0, minTraced: 10 }, async (req, res) => {
    await sleep(2)
    res.end('ok')
  })
  await load({ url: server.url, connections: 8, amount: 100 })
  const { text, counts } = await server.finish()
  assert.equal(counts.traced, 10)
  const traced = parseAsyncData(text).requests
  assert.equal(traced.length, 10)
  // One at a time: each started after the one before had finished.
  for (let i = 1; i < traced.length; i++) assert.ok(traced[i].startMs >= traced[i - 1].startMs + traced[i - 1].durationMs - 0.05)
})

test('callbacks on a connection opened before the request are the request\'s: three queries in a row, each sent from the callback of the one before, are serial', async () => {
  // A line-protocol "database" that answers each line after 5 ms, and one connection to it, as a pool holds.
  const database = net.createServer((socket) => {
    socket.on('data', (chunk) => {
      const lines = chunk.toString().split('\n').length - 1
      for (let i = 0; i < lines; i++) setTimeout(() => socket.write('row\n'), 5)
    })
  })
  database.listen(0, '127.0.0.1')
  await once(database, 'listening')
  const connection = net.connect(/** @type {net.AddressInfo} */ (database.address()).port, '127.0.0.1')
  await once(connection, 'connect')
  /** @type {(() => void)[]} */
  const waiting = []
  connection.on('data', (chunk) => {
    const lines = chunk.toString().split('\n').length - 1
    for (let i = 0; i < lines; i++) waiting.shift()?.()
  })
  const query = (/** @type {() => void} */ callback) => {
    waiting.push(callback)
    connection.write('q\n')
  }

  const server = await tracedServer({ sample: 1, perSecond: 0 }, (req, res) => {
    query(() => {
      query(() => {
        query(() => res.end('done'))
      })
    })
  })
  await load({ url: server.url, connections: 1, amount: 5 })
  const { text } = await server.finish()
  connection.destroy()
  database.close()

  const data = parseAsyncData(text)
  assert.equal(data.requests.length, 5)
  for (const request of data.requests) {
    const replies = request.ops.filter((op) => op.type === 'SOCKETREPLY')
    assert.equal(replies.length, 3, `request ${request.id}: ${replies.length} replies`)
    // Each reply's callback sent the next query.
    assert.equal(replies[1].exec, replies[0].id)
    assert.equal(replies[2].exec, replies[1].id)
  }
  const analysis = analyzeAsync(data)
  assert.deepEqual(analysis.findings.map((f) => f.kind), ['serial-awaits'])
  const [finding] = analysis.findings
  const detail = /** @type {import('../../../lib/kinds/async/analyze.js').SerialDetail} */ (finding.detail)
  assert.equal(detail.callbacks, true)
  assert.equal(detail.awaits.length, 3)
  assert.match(finding.location.file, /tracer\.test\.js$/)
  // The three lines of the handler that call the helper, not the helper's own line three times.
  assert.equal(new Set(detail.awaits.map((a) => a.location.line)).size, 3)
  assert.equal(finding.location.line, detail.awaits[0].location.line)
  for (const wait of detail.awaits) assert.ok(wait.ms >= 5, `${wait.ms} ms`)
  assert.equal(analysis.typical?.steps.filter((s) => s.type === 'SOCKETREPLY').length, 3)
})
