import { streamWrap } from './stream-wrap.js'

/**
 * Hands a plain socket's reads to the load past its Readable stream. With
 * `onread`, Node already reads into dyno's buffer, but each read still goes
 * through the stream's JavaScript (its timeout, its state) before it reaches
 * dyno: at 100k responses a second that is a visible share of a request.
 *
 * A handle calls its `onread` function with the read's size in the binding's
 * shared state. The function set here passes a read with data straight to
 * the connection and everything else (the end of the stream, an error, a
 * read on a socket already destroyed) to the stream's own function, so that
 * the socket ends and fails exactly as it would otherwise.
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
 * Makes `socket`'s reads with data call `onRead(n, buffer)` directly. A
 * socket Node has not given a handle yet, or one whose handle reads
 * otherwise, keeps its stream's path, where `onread` calls the same function.
 * @param {import('node:net').Socket} socket a plain (not TLS) socket made with `onread: { buffer, … }`
 * @param {Buffer} buffer
 * @param {(n: number, buffer: Buffer) => boolean} onRead false: stop reading
 */
export function readPastStream (socket, buffer, onRead) {
  if (sizeIndex === null) return
  const handle = /** @type {any} */ (socket)._handle
  const streamRead = handle?.onread
  if (typeof streamRead !== 'function') return
  const state = /** @type {Int32Array} */ (streamWrap().streamBaseState)
  const index = sizeIndex
  /** @this {any} @param {unknown} arrayBuffer */
  handle.onread = function onread (arrayBuffer) {
    const n = state[index]
    if (n <= 0 || socket.destroyed) return streamRead.call(this, arrayBuffer)
    if (onRead(n, buffer) === false) {
      // What the stream does when its onread callback returns false.
      this.reading = false
      if (!socket.destroyed) this.readStop()
    }
  }
}
