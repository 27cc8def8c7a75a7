'use strict'
/**
 * The agent and dyno talk in newline-delimited JSON over a Unix socket.
 * Shared by both sides (dyno imports this CommonJS file too).
 * @param {import('node:net').Socket} socket
 * @param {(message: any) => void} onMessage each line that is a JSON object with a string `type`; the
 *   caller narrows it to its side's messages (lib/agent/protocol.cjs)
 */
function onJsonLines (socket, onMessage) {
  let buffered = ''
  socket.setEncoding('utf8')
  socket.on('data', (text) => {
    buffered += text
    let at
    while ((at = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, at)
      buffered = buffered.slice(at + 1)
      let message
      try {
        message = JSON.parse(line)
      } catch {
        continue
      }
      if (message && typeof message.type === 'string') onMessage(message)
    }
  })
}

module.exports = { onJsonLines }
