'use strict'
/**
 * Calls back when the app starts listening on a TCP port or a unix socket,
 * through the `net.server.listen` diagnostics channel, so nothing of the
 * app's is wrapped. A socket's path is made absolute against the app's
 * working directory, which may not be dyno's.
 */
const diagnostics = require('node:diagnostics_channel')
const net = require('node:net')
const { resolve } = require('node:path')

/**
 * @typedef {{ port: number | null, address: string | null, family: string, path?: string }} Address
 */

/**
 * @param {import('./installed.cjs').Installed} installed
 * @param {(address: Address, server: net.Server) => void} callback
 */
function onListening (installed, callback) {
  if (typeof diagnostics.tracingChannel !== 'function') return
  installed.trace('net.server.listen', {
    start () {},
    end () {},
    asyncStart () {},
    error () {},
    asyncEnd (message) {
      const server = /** @type {{ server?: net.Server }} */ (message).server
      const address = server && describe(server.address())
      if (server && address) callback(address, server)
    }
  })
}

/**
 * The servers the app listens on already, for an agent brought in late.
 * Node lists no server the app unref'd among its active handles: those are
 * not found. Any failure finds none.
 * @returns {{ server: net.Server, address: Address }[]}
 */
function listeningNow () {
  try {
    /** @type {{ server: net.Server, address: Address }[]} */
    const found = []
    for (const handle of /** @type {any} */ (process)._getActiveHandles()) {
      if (!(handle instanceof net.Server) || !handle.listening) continue
      const address = describe(handle.address())
      if (address) found.push({ server: handle, address })
    }
    return found
  } catch {
    return []
  }
}

/**
 * @param {ReturnType<net.Server['address']>} address
 * @returns {Address | null}
 */
function describe (address) {
  if (address && typeof address === 'object') return { port: address.port, address: address.address, family: address.family }
  // A Linux abstract socket ('\0name') has no file, and no folder to resolve against.
  if (typeof address === 'string' && address !== '') return { port: null, address: null, family: 'unix', path: address[0] === '\0' ? address : resolve(address) }
  return null
}

module.exports = { onListening, listeningNow }
