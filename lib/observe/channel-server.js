import { EventEmitter } from 'node:events'
import { rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onJsonLines } from '../agent/json-lines.cjs'

const MESSAGES = new Set(['hello', 'listening', 'stopped', 'data'])

/**
 * The Unix socket dyno listens on for its agents (see lib/agent/channel.cjs).
 * It lives in the temp folder, because a socket path must be short.
 *
 * Events: 'hello', 'listening', 'stopped', 'data' (a collector's live data),
 * each with the agent's message, and 'disconnected' with the pid of an agent
 * whose process went away.
 */
export class ChannelServer extends EventEmitter {
  constructor () {
    super()
    this.path = join(tmpdir(), `dyno-${process.pid}-${Math.random().toString(36).slice(2, 8)}.sock`)
    /** @type {Set<net.Socket>} */
    this.sockets = new Set()
    this.server = net.createServer((socket) => this.accept(socket))
  }

  /** @returns {Promise<void>} */
  listen () {
    // However dyno ends, the socket file goes with it.
    process.once('exit', this.removeFile)
    return new Promise((resolve, reject) => {
      this.server.once('error', reject)
      this.server.listen(this.path, () => resolve())
    })
  }

  removeFile = () => rmSync(this.path, { force: true })

  /** @param {net.Socket} socket */
  accept (socket) {
    this.sockets.add(socket)
    /** @type {number | null} */
    let pid = null
    onJsonLines(socket, (/** @type {import('../agent/protocol.cjs').AgentMessage} */ message) => {
      if (message.type === 'hello') pid = Number(message.pid)
      if (MESSAGES.has(message.type)) this.emit(message.type, message)
    })
    // An agent's line drops when its process ends.
    socket.on('close', () => { if (pid !== null) this.emit('disconnected', { pid }) })
    socket.on('error', () => {})
    socket.on('close', () => this.sockets.delete(socket))
  }

  /** Asks every agent still connected to stop profiling and write what it has. */
  broadcastStop () {
    for (const socket of this.sockets) socket.write('{"type":"stop"}\n')
    return this.sockets.size
  }

  close () {
    for (const socket of this.sockets) socket.destroy()
    this.server.close()
    this.removeFile()
    process.off('exit', this.removeFile)
  }
}
