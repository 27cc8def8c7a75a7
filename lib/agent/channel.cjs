'use strict'
/**
 * The agent's line to dyno: newline-delimited JSON over a Unix socket that
 * dyno listens on. The agent is the client, so the app opens no port, and the
 * socket is unref'd so it never keeps the app alive.
 */
const net = require('node:net')
const { onJsonLines } = require('./json-lines.cjs')

/** How long closing waits for what was sent to reach dyno. */
const CLOSE_WAIT_MS = 2000

/**
 * @param {string} socketPath
 * @param {{ onStop: () => void, onClose: (connected: boolean) => void, onCommand: (message: { collector: string, id: number, command: unknown }) => void }} handlers
 *   onClose: the line dropped; connected: false when it never was open
 *   onCommand: dyno asks one collector for something (a heap snapshot), and waits for its reply
 */
function connectChannel (socketPath, handlers) {
  const socket = net.connect(socketPath)
  socket.unref()
  let open = true
  let connected = false
  socket.on('connect', () => { connected = true })
  onJsonLines(socket, (/** @type {import('./protocol.cjs').DynoMessage} */ message) => {
    if (message.type === 'stop') handlers.onStop()
    else if (message.type === 'command') handlers.onCommand(message)
  })
  socket.on('error', () => {})
  socket.on('close', () => {
    if (!open) return
    open = false
    // dyno went away (or was never there): stop profiling rather than run on unobserved.
    handlers.onClose(connected)
  })
  return {
    /** @param {import('./protocol.cjs').AgentMessage} message */
    send (message) {
      if (open) socket.write(JSON.stringify(message) + '\n')
    },
    /**
     * Ends the line once what was sent is written (a while at most), without
     * calling onClose. Resolves when the socket is gone.
     * @returns {Promise<void>}
     */
    close () {
      open = false
      if (socket.destroyed) return Promise.resolve()
      return new Promise((resolve) => {
        const timer = setTimeout(() => socket.destroy(), CLOSE_WAIT_MS)
        socket.once('close', () => {
          clearTimeout(timer)
          resolve()
        })
        socket.end()
      })
    }
  }
}

module.exports = { connectChannel }
