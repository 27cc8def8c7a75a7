import assert from 'node:assert/strict'
import net from 'node:net'
import { test } from 'node:test'
import { readPastStream, readsPastStream } from '../../lib/load/raw-read.js'
import { startRawServer } from '../helpers/servers.js'

/**
 * A socket made as the load makes them, whose stream's own onread is
 * wrapped to count what reaches it, before readPastStream takes over.
 * @param {number} port @param {(n: number, buffer: Buffer) => boolean} onRead
 */
function connectCounting (port, onRead) {
  const buffer = Buffer.alloc(1024)
  const socket = net.connect({ host: '127.0.0.1', port, onread: { buffer, callback: onRead } })
  const handle = /** @type {any} */ (socket)._handle
  const streamRead = handle.onread
  const reachedStream = { calls: 0 }
  handle.onread = function (/** @type {unknown} */ arrayBuffer) {
    reachedStream.calls++
    return streamRead.call(this, arrayBuffer)
  }
  readPastStream(socket, buffer, onRead)
  return { socket, reachedStream }
}

test('reads with data reach the connection past the stream; the end of the stream goes through it', async (t) => {
  assert.equal(readsPastStream, true, 'this Node has the binding dyno reads with')
  const server = await startRawServer((socket, data) => {
    if (data.toString().includes('bye')) socket.end('last')
    else socket.write(data)
  })
  t.after(server.close)
  /** @type {string[]} */
  const got = []
  const { socket, reachedStream } = connectCounting(server.port, (n, buffer) => {
    got.push(buffer.toString('latin1', 0, n))
    return true
  })
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.write('one')
  await until(() => got.join('') === 'one')
  socket.write('bye')
  // The server's FIN: the socket ends and closes as a stream does.
  await new Promise((resolve) => socket.once('close', resolve))
  assert.equal(got.join(''), 'onelast')
  assert.equal(reachedStream.calls, 1, 'only the end of the stream went through the stream')
})

test('a connection that returns false stops reading', async (t) => {
  const server = await startRawServer((socket) => socket.write('a'))
  t.after(server.close)
  let reads = 0
  const { socket } = connectCounting(server.port, () => {
    reads++
    return false
  })
  t.after(() => socket.destroy())
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.write('go')
  await until(() => reads === 1)
  assert.equal(/** @type {any} */ (socket)._handle.reading, false, 'the handle no longer reads')
})

/** @param {() => boolean} done */
async function until (done) {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5))
}
