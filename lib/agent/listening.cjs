'use strict'
/**
 * Calls back when the app starts listening on a TCP port, through the
 * `net.server.listen` diagnostics channel, so nothing of the app's is wrapped.
 */
const diagnostics = require('node:diagnostics_channel')

/** @param {(address: { port: number, address: string, family: string }) => void} callback */
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
    }
  })
}

module.exports = { onListening }
