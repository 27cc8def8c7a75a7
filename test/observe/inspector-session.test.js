/**
 * How dyno hangs up on an inspector, against a WebSocket server standing in
 * for Node's: which side starts the close is the point, and Node's own
 * server cannot tell. When dyno opened the inspector, the app must start the
 * close alone: a close frame from dyno at the same moment makes Node's
 * inspector free the connection twice, and the app dies.
 */
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { test } from 'node:test'
import WebSocket, { WebSocketServer } from 'ws'
import { CLOSE_INSPECTOR, inspectorSession } from '../../lib/observe/attach/inspector-session.js'

/**
 * A stand-in inspector: answers every call with an empty result, and on
 * Runtime.evaluate of inspector.close() closes the connection itself after
 * `closeAfterMs` (never, if null), saying whether dyno had started a close by then.
 * @param {number | null} closeAfterMs
 */
async function standIn (closeAfterMs) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await once(server, 'listening')
  const seen = { evaluated: /** @type {string[]} */ ([]), dynoClosedFirst: /** @type {boolean | null} */ (null) }
  server.on('connection', (socket) => {
    socket.on('message', (data) => {
      const { id, params } = JSON.parse(String(data))
      seen.evaluated.push(params.expression)
      socket.send(JSON.stringify({ id, result: { result: { value: 0 } } }))
      if (closeAfterMs !== null && params.expression.includes("'node:inspector').close()")) {
        setTimeout(() => {
          seen.dynoClosedFirst = socket.readyState !== WebSocket.OPEN
          socket.close()
        }, closeAfterMs)
      }
    })
  })
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
  const ws = new WebSocket(`ws://127.0.0.1:${port}/`)
  await once(ws, 'open')
  return { ws, seen, close: () => new Promise((resolve) => server.close(resolve)) }
}

test('an inspector dyno opened: the app closes it and starts the hang-up, dyno only answers', async (t) => {
  const { ws, seen, close } = await standIn(500)
  t.after(close)
  const ended = await inspectorSession(ws, 1).hangUp({ closeInspector: true, timeoutMs: 60_000 })
  assert.equal(ended, true)
  assert.equal(seen.evaluated.length, 1)
  assert.equal(seen.evaluated[0], CLOSE_INSPECTOR)
  assert.equal(seen.dynoClosedFirst, false, 'dyno sent a close frame while the app was closing')
})

test('an inspector that was open before dyno: dyno hangs up, and leaves it open', async (t) => {
  const { ws, seen, close } = await standIn(null)
  t.after(close)
  const ended = await inspectorSession(ws, 1).hangUp({ closeInspector: false, timeoutMs: 60_000 })
  assert.equal(ended, true)
  assert.deepEqual(seen.evaluated, [])
})

test('an app whose loop does not turn to close: dyno drops the connection after its wait', async (t) => {
  const { ws, close } = await standIn(null)
  t.after(close)
  const ended = await inspectorSession(ws, 1).hangUp({ closeInspector: true, timeoutMs: 200 })
  assert.equal(ended, false)
  if (ws.readyState !== WebSocket.CLOSED) await once(ws, 'close')
})
