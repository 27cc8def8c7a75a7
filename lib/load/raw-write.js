import { getSystemErrorName } from 'node:util'
import { streamWrap } from './stream-wrap.js'

/**
 * Writes to a plain TCP socket's handle, past its Writable stream. At 100k
 * requests a second, socket.write() costs a visible share of a request: a
 * WriteWrap object per call, the stream's bookkeeping and a process.nextTick.
 * The handle's write method is Node's internal API, in one of two forms
 * (Node 20 to 24: the caller makes the request object; Node 26: the handle
 * makes one only when the write must wait), so `rawWriter()` recognises the
 * form at run time and returns null when it knows neither, or when the
 * binding is out of reach (stream-wrap.js); connections then use
 * socket.write(), and the run's result says so (`generator.rawWrite: false`).
 *
 * Its caller must not mix the two: it writes past the stream only as long
 * as it has never written to the stream (nor corked it), so that bytes leave
 * in the order they were written; that spares each write a look at the
 * stream's state, two more objects to fetch per request. A write the kernel cannot
 * take at once is queued by libuv behind nothing but earlier raw writes;
 * a failed write destroys the socket with the error socket.write() would
 * have given it.
 */

/**
 * @typedef {object} RawWriter
 * @property {(socket: import('node:net').Socket, data: Buffer) => boolean} write
 *   writes `data` past the stream of a connected socket, which nothing was
 *   written to through its stream; false: nothing was written, use socket.write()
 */

/** @type {RawWriter | null | undefined} */
let cached

/** @returns {RawWriter | null} */
export function rawWriter () {
  if (cached === undefined) cached = probe()
  return cached
}

/** @returns {RawWriter | null} */
function probe () {
  const binding = streamWrap()
  if (binding === null || typeof binding.kBytesWritten !== 'number') return null
  const state = binding.streamBaseState
  if (typeof binding.kLastWriteErr === 'number') return handleMadeRequests(state, binding.kLastWriteErr)
  if (typeof binding.WriteWrap === 'function' && typeof binding.kLastWriteWasAsync === 'number') {
    return callerMadeRequests(state, binding.WriteWrap, binding.kLastWriteWasAsync)
  }
  return null
}

/**
 * The handle of a connected socket, or null (destroy() drops the handle).
 * @param {import('node:net').Socket} socket
 */
function freeHandle (socket) {
  const handle = /** @type {any} */ (socket)._handle
  if (handle == null || socket.connecting) return null
  return typeof handle.writeBuffer === 'function' ? handle : null
}

/**
 * What socket.write() does with a failed write.
 * @param {import('node:net').Socket} socket @param {number} status a negative errno
 */
function fail (socket, status) {
  const err = /** @type {NodeJS.ErrnoException} */ (new Error(`write ${getSystemErrorName(status)}`))
  err.errno = status
  err.code = getSystemErrorName(status)
  err.syscall = 'write'
  socket.destroy(err)
}

/**
 * `this`: a request object of a write that had to wait; `status` < 0 when it failed.
 * @this {{ socket: import('node:net').Socket, buffer: Buffer | null }}
 * @param {number} status
 */
function onComplete (status) {
  this.buffer = null
  if (status < 0 && !this.socket.destroyed) fail(this.socket, status)
}

/**
 * Node 20 to 24: writeBuffer(req, data) with a WriteWrap made by the caller,
 * which the handle keeps only when the write waits. A socket keeps one for
 * its writes until one waits.
 * @param {Int32Array} state @param {new () => any} WriteWrap @param {number} kLastWriteWasAsync
 * @returns {RawWriter}
 */
function callerMadeRequests (state, WriteWrap, kLastWriteWasAsync) {
  const spare = Symbol('spare WriteWrap')
  return {
    write (socket, data) {
      const handle = freeHandle(socket)
      if (handle === null) return false
      let req = /** @type {any} */ (socket)[spare]
      if (req === undefined) {
        req = new WriteWrap()
        req.handle = handle
        req.socket = socket
        req.oncomplete = onComplete
        req.buffer = null
        ;/** @type {any} */ (socket)[spare] = req
      }
      const err = handle.writeBuffer(req, data)
      if (err !== 0) {
        fail(socket, err)
      } else if (state[kLastWriteWasAsync] !== 0) {
        // The handle holds this request until the write completes.
        req.buffer = data
        ;/** @type {any} */ (socket)[spare] = undefined
      }
      return true
    }
  }
}

/**
 * Node 26: writeBuffer(null, data) returns a number when the write is done
 * (0, or the error), or the request object the handle made for a write that waits.
 * @param {Int32Array} state @param {number} kLastWriteErr
 * @returns {RawWriter}
 */
function handleMadeRequests (state, kLastWriteErr) {
  return {
    write (socket, data) {
      const handle = freeHandle(socket)
      if (handle === null) return false
      const ret = handle.writeBuffer(null, data)
      if (typeof ret === 'number') {
        if (ret !== 0) fail(socket, ret)
        return true
      }
      const err = state[kLastWriteErr]
      if (err !== 0) {
        fail(socket, err)
        return true
      }
      ret.socket = socket
      ret.buffer = data
      ret.oncomplete = onComplete
      // It may have completed before oncomplete was there to hear it.
      const status = ret.writeStatus
      if (status !== null && status !== undefined) {
        ret.writeStatus = null
        ret.oncomplete(status)
      }
      return true
    }
  }
}
