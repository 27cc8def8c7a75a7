import assert from 'node:assert/strict'
import net from 'node:net'
import { test } from 'node:test'
import { readPastStream, readsPastStream } from '../../lib/load/raw-read.js'
import { openSocket } from '../../lib/load/socket.js'
import { startRawServer } from '../helpers/servers.js'

/**
 * A socket made as the load makes them, whose stream's own onread is
 * wrapped to count what reaches it once connected, before readPastStream
 * takes over (it does on 'connect', after this).
 * @param {number} port @param {(n: number, buffer: Buffer) => boolean} onRead
 */
function connectCounting (port, onRead) {
  const buffer = Buffer.alloc(1024)
  const socket = net.connect({ host: '127.0.0.1', port, onread: { buffer, callback: onRead } })
  const reachedStream = { calls: 0 }
  socket.once('connect', () => {
    const handle = /** @type {any} */ (socket)._handle
    const streamRead = handle.onread
    handle.onread = function (/** @type {unknown} */ arrayBuffer) {
      reachedStream.calls++
      return streamRead.call(this, arrayBuffer)
    }
  })
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

test('a connection that returns false stops the handle reading, past the stream too', async (t) => {
  const server = await startRawServer((socket) => socket.write('a'))
  t.after(server.close)
  let reads = 0
  const { socket, reachedStream } = connectCounting(server.port, () => {
    reads++
    return false
  })
  t.after(() => socket.destroy())
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.write('go')
  await until(() => reads === 1)
  assert.equal(reachedStream.calls, 0)
  assert.equal(/** @type {any} */ (socket)._handle.reading, false, 'the handle no longer reads')
})

test('a destroyed socket\'s handle no longer calls the connection (destroy() takes its onread away)', async (t) => {
  const server = await startRawServer(() => {})
  t.after(server.close)
  const { socket } = connectCounting(server.port, () => true)
  await new Promise((resolve) => socket.once('connect', resolve))
  const handle = /** @type {any} */ (socket)._handle
  const ours = handle.onread
  socket.destroy()
  // dyno's onread checks nothing of the socket: this is what keeps a destroyed one's reads out.
  assert.notEqual(handle.onread, ours)
})

test('the load\'s plain sockets read past their streams once connected', async (t) => {
  const server = await startRawServer((socket, data) => socket.write(data))
  t.after(server.close)
  const target = /** @type {import('../../lib/load/engine.js').Target} */ ({ tls: false, hostname: '127.0.0.1', address: '127.0.0.1', port: server.port })
  let got = ''
  const socket = openSocket(target, ['http/1.1'], Buffer.alloc(1024), (n, buffer) => {
    got += buffer.toString('latin1', 0, n)
    return true
  })
  t.after(() => socket.destroy())
  // Node's own read function, from a socket dyno did not open.
  const plain = net.connect({ host: '127.0.0.1', port: server.port })
  t.after(() => plain.destroy())
  await Promise.all([socket, plain].map((s) => new Promise((resolve) => s.once('connect', resolve))))
  const streamRead = /** @type {any} */ (plain)._handle.onread
  assert.notEqual(/** @type {any} */ (socket)._handle.onread, streamRead)
  socket.write('ping')
  await until(() => got === 'ping')
})

test('a socket Node connects on its second address (a new handle) still reads past its stream', async (t) => {
  const server = await startRawServer((socket, data) => socket.write(data))
  t.after(server.close)
  // Two addresses, the first refused: autoSelectFamily gives the second attempt a handle of its own.
  /** @type {any} */
  const lookup = (/** @type {string} */ host, /** @type {{ all?: boolean }} */ options, /** @type {Function} */ callback) => options.all
    ? callback(null, [{ address: '127.0.0.2', family: 4 }, { address: '127.0.0.1', family: 4 }])
    : callback(null, '127.0.0.2', 4)
  const buffer = Buffer.alloc(1024)
  let got = ''
  const onRead = (/** @type {number} */ n, /** @type {Buffer} */ b) => {
    got += b.toString('latin1', 0, n)
    return true
  }
  const socket = net.connect({ host: 'two.invalid', port: server.port, lookup, autoSelectFamily: true, onread: { buffer, callback: onRead } })
  t.after(() => socket.destroy())
  const first = /** @type {any} */ (socket)._handle
  readPastStream(socket, buffer, onRead)
  const plain = net.connect({ host: '127.0.0.1', port: server.port })
  t.after(() => plain.destroy())
  await Promise.all([socket, plain].map((s) => new Promise((resolve) => s.once('connect', resolve))))
  assert.equal(socket.remoteAddress, '127.0.0.1')
  assert.notEqual(/** @type {any} */ (socket)._handle, first, 'Node connected on a new handle')
  assert.notEqual(/** @type {any} */ (socket)._handle.onread, /** @type {any} */ (plain)._handle.onread)
  socket.write('ping')
  await until(() => got === 'ping')
})

/** @param {() => boolean} done */
async function until (done) {
  const deadline = Date.now() + 10_000
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
