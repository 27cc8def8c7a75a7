'use strict'
/**
 * The agent's line to dyno: newline-delimited JSON over a Unix socket that
 * dyno listens on. The agent is the client, so the app opens no port, and the
 * socket is unref'd so it never keeps the app alive.
 */
const net = require('node:net')
const { onJsonLines } = require('./json-lines.cjs')

/**
 * @param {string} socketPath
 * @param {{ onStop: () => void, onClose: () => void, onCommand: (message: { collector: string, id: number, command: unknown }) => void }} handlers
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
    // dyno went away: stop profiling rather than run on unobserved.
    if (connected) handlers.onClose()
  })
  return {
    /** @param {import('./protocol.cjs').AgentMessage} message */
    send (message) {
      if (open) socket.write(JSON.stringify(message) + '\n')
    }
  }
}

module.exports = { connectChannel }
