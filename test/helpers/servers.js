import http from 'node:http'
import net from 'node:net'

/**
 * Test servers on 127.0.0.1, port 0. Each counts what it saw.
 */

/**
 * @param {http.RequestListener} handler
 * @param {http.ServerOptions} [options]
 */
export async function startHttpServer (handler, options = {}) {
  const server = http.createServer({ keepAliveTimeout: 30_000, ...options }, handler)
  const stats = { requests: 0, connections: 0 }
  server.on('request', () => { stats.requests++ })
  server.on('connection', () => { stats.connections++ })
  return { ...await listen(server, () => server.closeAllConnections()), server, stats }
}

/**
 * Listens on 127.0.0.1, port 0.
 * @param {net.Server} server
 * @param {() => void} dropConnections
 */
async function listen (server, dropConnections) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  const port = /** @type {net.AddressInfo} */ (server.address()).port
  return {
    port,
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => {
      dropConnections()
      server.close(() => resolve(undefined))
    })
  }
}

/**
 * A TCP server that answers with whatever `onData` writes: for servers that
 * misbehave in ways node:http never would.
 * @param {(socket: net.Socket, data: Buffer, state: Record<string, any>) => void} onData
 */
export async function startRawServer (onData) {
  /** @type {Set<net.Socket>} */
  const sockets = new Set()
  const stats = { connections: 0, bytes: 0 }
  const server = net.createServer((socket) => {
    stats.connections++
    sockets.add(socket)
    socket.setNoDelay(true)
    const state = {}
    socket.on('data', (data) => {
      stats.bytes += data.length
      onData(socket, data, state)
    })
    socket.on('error', () => {})
    socket.on('close', () => sockets.delete(socket))
  })
  return {
    ...await listen(server, () => { for (const socket of sockets) socket.destroy() }),
    server,
    stats
  }
}

/**
 * Counts complete requests in what a raw server received (GETs without bodies).
 * @param {Record<string, any>} state
 * @param {Buffer} data
 */
export function countRequests (state, data) {
  state.pending = (state.pending ?? '') + data.toString('latin1')
  let n = 0
  let at
  while ((at = state.pending.indexOf('\r\n\r\n')) !== -1) {
    state.pending = state.pending.slice(at + 4)
    n++
  }
  return n
}

/** A port on 127.0.0.1 where nothing listens. */
export async function freePort () {
  const server = net.createServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  const port = /** @type {net.AddressInfo} */ (server.address()).port
  await new Promise((resolve) => server.close(() => resolve(undefined)))
  return port
}
