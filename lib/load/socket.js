import { createRequire } from 'node:module'
import net from 'node:net'
import { readPastStream } from './raw-read.js'

/**
 * Opening a load's sockets to its target: TCP or a unix socket, plain or
 * with TLS. Every socket of an engine reads into the engine's one buffer
 * (`onread`), so reading costs no allocation, and a plain socket's reads
 * reach its connection past the socket's stream (raw-read.js).
 */

const require = createRequire(import.meta.url)

/**
 * node:tls, loaded by the first TLS connection: loading it (and OpenSSL's
 * side of node:crypto) costs a plain run ~10 ms of CPU.
 * @returns {typeof import('node:tls')}
 */
export function tlsModule () {
  return require('node:tls')
}

/**
 * Where a plain socket connects: the unix socket, or the host and port.
 * @param {import('./engine.js').Target} target
 * @returns {{ path: string } | { host: string, port: number }}
 */
export function netAddress (target) {
  return target.socketPath !== undefined ? { path: target.socketPath } : { host: target.address ?? target.hostname, port: target.port }
}

/**
 * How a TLS socket connects and verifies, offering `protocols` by ALPN.
 * @param {import('./engine.js').Target} target @param {string[]} protocols
 * @returns {import('node:tls').ConnectionOptions}
 */
export function tlsOptions (target, protocols) {
  return {
    ...netAddress(target),
    servername: target.servername,
    rejectUnauthorized: !target.insecure,
    ca: target.ca,
    ALPNProtocols: protocols
  }
}

/**
 * Starts connecting a socket to `target`, with Nagle's delay off. Every read
 * calls `onRead(n, buffer)`, the bytes in `buffer[0..n)`; false stops reading.
 * @param {import('./engine.js').Target} target
 * @param {string[]} protocols what TLS offers by ALPN
 * @param {Buffer} buffer
 * @param {(n: number, buffer: Buffer) => boolean} onRead
 * @returns {net.Socket}
 */
export function openSocket (target, protocols, buffer, onRead) {
  const onread = { buffer, callback: onRead }
  /** @type {net.Socket} */
  let socket
  if (target.tls) {
    // tls.connect hands onread to the socket, though its types omit it.
    socket = tlsModule().connect({ ...tlsOptions(target, protocols), ...(/** @type {object} */ ({ onread })) })
  } else {
    socket = net.connect({ ...netAddress(target), onread })
    readPastStream(socket, buffer, onRead)
  }
  socket.setNoDelay(true)
  return socket
}
