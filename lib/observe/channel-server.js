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
    /** @type {Map<number, net.Socket>} each agent's socket, by pid */
    this.byPid = new Map()
    this.nextCommand = 1
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
      if (message.type === 'hello') {
        pid = Number(message.pid)
        this.byPid.set(pid, socket)
      }
      if (MESSAGES.has(message.type)) this.emit(message.type, message)
    })
    // An agent's line drops when its process ends.
    socket.on('close', () => { if (pid !== null) this.emit('disconnected', { pid }) })
    socket.on('error', () => {})
    socket.on('close', () => {
      this.sockets.delete(socket)
      if (pid !== null && this.byPid.get(pid) === socket) this.byPid.delete(pid)
    })
  }

  /**
   * Sends one collector of one agent a command and resolves with its reply
   * (the collector's 'data' message tagged with the command's id). Rejects
   * when the agent is gone, goes away, or does not answer in time.
   * @param {number} pid @param {string} collector @param {object} command
   * @param {number} timeoutMs
   * @returns {Promise<{ [key: string]: unknown }>}
   */
  ask (pid, collector, command, timeoutMs) {
    const socket = this.byPid.get(pid)
    if (!socket) return Promise.reject(new Error(`process ${pid} is not connected`))
    const id = this.nextCommand++
    return new Promise((resolve, reject) => {
      const finish = (/** @type {Error | null} */ err, /** @type {any} */ reply) => {
        clearTimeout(timer)
        this.off('data', onData)
        this.off('disconnected', onGone)
        if (err) reject(err)
        else resolve(reply)
      }
      const onData = (/** @type {any} */ message) => { if (message.pid === pid && message.reply === id) finish(null, message) }
      const onGone = (/** @type {{ pid: number }} */ message) => { if (message.pid === pid) finish(new Error(`process ${pid} ended`), null) }
      const timer = setTimeout(() => finish(new Error(`process ${pid} did not answer within ${timeoutMs / 1000} s`), null), timeoutMs)
      this.on('data', onData)
      this.on('disconnected', onGone)
      socket.write(JSON.stringify({ type: 'command', collector, id, command }) + '\n')
    })
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
