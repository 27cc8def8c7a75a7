import { setTimeout as sleep } from 'node:timers/promises'
import WebSocket from 'ws'
import { dynoError } from '../../errors.js'
import { inspectorSession } from './inspector-session.js'
import { isLoopback } from './node-flags.js'
import { clusterWorkers, listeningPorts, portListener } from './proc.js'

/**
 * A running Node.js process's inspector, opened the way Node documents it
 * (SIGUSR1 starts it on the port its flags name, 9229 by default), spoken to
 * over its WebSocket, and closed again by the one who opened it.
 */

/** How long the process may take to open its inspector after SIGUSR1. */
const OPEN_TIMEOUT_MS = 5000
/**
 * How long the hang-up may take, and the port to go: the app's loop must turn
 * to close its inspector. A blocked app's closes later, on its next turn.
 */
const CLOSE_TIMEOUT_MS = 3000

/**
 * @typedef {object} OpenInspector
 * @property {string} host
 * @property {number} port
 * @property {boolean} openedByDyno false: it was open already, and stays open
 * @property {(expression: string, timeoutMs: number) => Promise<unknown>} evaluate runs an expression on the main thread and resolves with its value
 * @property {() => Promise<{ openMs: number, stillOpen: boolean }>} close ends dyno's connection and, when dyno opened it, the
 *   inspector; resolves with how long it was open, and whether its port is still there
 */

/**
 * @param {number} pid
 * @param {import('./node-flags.js').InspectorFlags} flags
 * @param {{ useOpen: boolean }} options useOpen: an inspector already open may be used (and is left open)
 * @returns {Promise<OpenInspector>}
 */
export async function openInspector (pid, flags, { useOpen }) {
  const before = listeningPorts(pid)
  const already = flags.port === 0 ? null : before.find((p) => p.port === flags.port)
  if (already || flags.openedAtStart) {
    if (!useOpen) throw dynoError('DYNO_PID_INSPECTOR_OPEN', { pid, how: flags.openedAtStart ?? `on port ${flags.port}` })
    const port = already?.port ?? await findInspectorPort(before.map((p) => p.port))
    if (port === null) throw dynoError('DYNO_PID_NO_INSPECTOR.notFound', { pid })
    return connect(pid, already?.host ?? '127.0.0.1', port, false)
  }
  const workers = clusterWorkers(pid)
  if (workers.length > 0) throw dynoError('DYNO_PID_CLUSTER_PRIMARY', { pid, workers: workers.join(' or ') })
  if (!isLoopback(flags.host)) throw dynoError('DYNO_PID_FORBIDDEN.publicHost', { pid, host: flags.host })
  if (flags.port !== 0) {
    const taken = portListener(flags.port)
    if (taken) throw dynoError('DYNO_PID_PORT_TAKEN', { pid, port: flags.port, owner: taken.pid === null ? 'another process' : `pid ${taken.pid}` })
  }
  const openedAt = performance.now()
  process.kill(pid, 'SIGUSR1')
  const known = new Set(before.map((p) => p.inode))
  const until = Date.now() + OPEN_TIMEOUT_MS
  while (Date.now() < until) {
    const fresh = listeningPorts(pid).filter((p) => !known.has(p.inode))
    // The app may open a port of its own meanwhile: the inspector's is the one its flags name.
    const opened = fresh.find((p) => flags.port === 0 || p.port === flags.port)
    if (opened) return connect(pid, opened.host, opened.port, true, openedAt)
    await sleep(10)
  }
  throw dynoError('DYNO_PID_NO_INSPECTOR.noSignal', { pid, seconds: OPEN_TIMEOUT_MS / 1000 })
}

/**
 * Of a process's ports, the one its inspector answers on.
 * @param {number[]} ports
 */
async function findInspectorPort (ports) {
  for (const port of ports) {
    if (await targetsOf('127.0.0.1', port).catch(() => null)) return port
  }
  return null
}

/**
 * The inspector's targets, from its HTTP side.
 * @param {string} host @param {number} port
 * @returns {Promise<{ type: string, webSocketDebuggerUrl: string }[]>}
 */
async function targetsOf (host, port) {
  const response = await fetch(`http://${urlHost(host)}:${port}/json/list`, { signal: AbortSignal.timeout(2000) })
  const list = await response.json()
  if (!Array.isArray(list) || list.length === 0 || typeof list[0].webSocketDebuggerUrl !== 'string') throw new Error('not an inspector')
  return list
}

/**
 * @param {number} pid @param {string} host @param {number} port
 * @param {boolean} openedByDyno @param {number} [openedAt] performance.now() when dyno sent SIGUSR1
 * @returns {Promise<OpenInspector>}
 */
async function connect (pid, host, port, openedByDyno, openedAt = performance.now()) {
  const connectHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host
  /** @type {WebSocket} */
  let socket
  try {
    const [target] = await targetsOf(connectHost, port)
    const opening = new WebSocket(target.webSocketDebuggerUrl.replace(/^ws:\/\/[^/]+/, `ws://${urlHost(connectHost)}:${port}`), { perMessageDeflate: false })
    await new Promise((resolve, reject) => {
      opening.once('open', resolve)
      opening.once('error', reject)
    })
    socket = opening
  } catch (err) {
    throw dynoError('DYNO_PID_NO_INSPECTOR.noConnection', { pid, port, why: /** @type {Error} */ (err).message })
  }
  const session = inspectorSession(socket, pid)
  return {
    host: connectHost,
    port,
    openedByDyno,
    evaluate: session.evaluate,
    async close () {
      const ended = await session.hangUp({ closeInspector: openedByDyno, timeoutMs: CLOSE_TIMEOUT_MS })
      // The port goes as inspector.close() returns; when the app's loop did not turn to run it, it goes on its next turn.
      if (openedByDyno && ended) {
        const until = Date.now() + CLOSE_TIMEOUT_MS
        while (Date.now() < until && listeningPorts(pid).some((p) => p.port === port)) await sleep(10)
      }
      return { openMs: performance.now() - openedAt, stillOpen: openedByDyno && listeningPorts(pid).some((p) => p.port === port) }
    }
  }
}

/** @param {string} host */
function urlHost (host) {
  return host.includes(':') ? `[${host}]` : host
}
