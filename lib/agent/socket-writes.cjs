'use strict'
/**
 * Every write to a socket, reported while the async tracer is on: how dyno
 * async sees a request wait on a connection opened before it. A pooled
 * database or HTTP connection's reads run in the connection's own async
 * context, which no request made, so whatever a request's callback does
 * there is lost to async_hooks (and to AsyncLocalStorage). The request that
 * last wrote to a connection is the one its next answer is for: the tracer
 * takes the connection's context for that request until someone else writes.
 *
 * The patch is on `Socket.prototype._writeGeneric`, which every write and
 * writev of a net or TLS socket goes through, only while the tracer's hooks
 * are on; where a Node line has no such method, connections are not followed.
 */
const net = require('node:net')

const proto = /** @type {any} */ (net.Socket.prototype)
const original = proto._writeGeneric

/**
 * @param {(socket: net.Socket) => void} onWrite
 * @returns {() => void} removes the patch (unless someone patched over it since)
 */
function watchSocketWrites (onWrite) {
  if (typeof original !== 'function') return () => {}
  /** @this {net.Socket} @param {...unknown} args */
  function writeGeneric (...args) {
    onWrite(this)
    return original.apply(this, args)
  }
  proto._writeGeneric = writeGeneric
  return () => {
    if (proto._writeGeneric === writeGeneric) proto._writeGeneric = original
  }
}

/**
 * The async id the socket's reads run in: its handle's.
 * @param {net.Socket} socket
 * @returns {number}
 */
function socketAsyncId (socket) {
  const handle = /** @type {any} */ (socket)._handle
  return handle && typeof handle.getAsyncId === 'function' ? handle.getAsyncId() : -1
}

module.exports = { watchSocketWrites, socketAsyncId }
