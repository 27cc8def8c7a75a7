'use strict'
/**
 * Calls back when the app starts listening on a TCP port or a unix socket,
 * through the `net.server.listen` diagnostics channel, so nothing of the
 * app's is wrapped. A socket's path is made absolute against the app's
 * working directory, which may not be dyno's.
 */
const diagnostics = require('node:diagnostics_channel')
const { resolve } = require('node:path')

/** @param {(address: { port: number | null, address: string | null, family: string, path?: string }) => void} callback */
function onListening (callback) {
  if (typeof diagnostics.tracingChannel !== 'function') return
  diagnostics.tracingChannel('net.server.listen').subscribe({
    start () {},
    end () {},
    asyncStart () {},
    error () {},
    asyncEnd (message) {
      const server = /** @type {{ server?: import('node:net').Server }} */ (message).server
      const address = server && server.address()
      if (address && typeof address === 'object') callback({ port: address.port, address: address.address, family: address.family })
      // A Linux abstract socket ('\0name') has no file, and no folder to resolve against.
      else if (typeof address === 'string' && address !== '') callback({ port: null, address: null, family: 'unix', path: address[0] === '\0' ? address : resolve(address) })
    }
  })
}

module.exports = { onListening }
