import { streamWrap } from './stream-wrap.js'

/**
 * Hands a plain socket's reads to the load past its Readable stream. With
 * `onread`, Node already reads into dyno's buffer, but each read still goes
 * through the stream's JavaScript (its timeout, its state) before it reaches
 * dyno: at 100k responses a second that is a visible share of a request.
 *
 * A handle calls its `onread` function with the read's size in the binding's
 * shared state. The function set here passes a read with data straight to
 * the connection and everything else (the end of the stream, an error) to
 * the stream's own function, so that the socket ends and fails as it would
 * otherwise. What a read with data no longer does: refresh the socket's idle
 * timer (socket.setTimeout(), which the load's sockets do not use: the
 * engine times requests itself).
 */

/**
 * The index of a read's size in the binding's state, or null when this Node has none.
 * @returns {number | null}
 */
function readSizeIndex () {
  const binding = streamWrap()
  return binding !== null && typeof binding.kReadBytesOrError === 'number' ? binding.kReadBytesOrError : null
}

const sizeIndex = readSizeIndex()

/** Whether sockets are read past their streams on this Node. */
export const readsPastStream = sizeIndex !== null

/**
 * Makes `socket`'s reads with data call `onRead(n, buffer)` directly, from
 * its 'connect' on: Node may give a socket a new handle for each address it
 * tries (autoSelectFamily), so the handle that reads is the connected one.
 * A handle that reads otherwise keeps its stream's path, where `onread`
 * calls the same function.
 * @param {import('node:net').Socket} socket a plain (not TLS) socket made with `onread: { buffer, … }`, connecting
 * @param {Buffer} buffer
 * @param {(n: number, buffer: Buffer) => boolean} onRead false: stop reading
 */
export function readPastStream (socket, buffer, onRead) {
  if (sizeIndex !== null) socket.once('connect', () => takeReads(socket, buffer, onRead, sizeIndex))
}

/**
 * @param {import('node:net').Socket} socket @param {Buffer} buffer
 * @param {(n: number, buffer: Buffer) => boolean} onRead @param {number} index
 */
function takeReads (socket, buffer, onRead, index) {
  const handle = /** @type {any} */ (socket)._handle
  const streamRead = handle?.onread
  if (typeof streamRead !== 'function') return
  const state = /** @type {Int32Array} */ (streamWrap().streamBaseState)
  /** @this {any} @param {unknown} arrayBuffer */
  handle.onread = function onread (arrayBuffer) {
    const n = state[index]
    // No read reaches here once the socket is destroyed: destroy() swaps
    // the handle's onread for a no-op as it closes it.
    if (n <= 0) return streamRead.call(this, arrayBuffer)
    if (onRead(n, buffer) === false) {
      // What the stream does when its onread callback returns false.
      // (libuv's uv_read_stop() cannot fail, so its result needs no check.)
      this.reading = false
      if (!socket.destroyed) this.readStop()
    }
  }
}
