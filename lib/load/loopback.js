import net from 'node:net'

/**
 * `localhost` is two addresses, 127.0.0.1 and ::1, and a server may listen
 * on either one alone. These find the one that answers.
 */

const PROBE_TIMEOUT_MS = 1000

/**
 * Whether something accepts TCP connections at `host:port`.
 * @param {string} host @param {number} port
 * @returns {Promise<boolean>}
 */
export function accepts (host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port })
    const done = (/** @type {boolean} */ ok) => { socket.destroy(); resolve(ok) }
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done(false))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}

/**
 * The loopback address of a `localhost` target that accepts connections,
 * 127.0.0.1 first; undefined when neither does.
 * @param {number} port
 */
export async function loopbackAddress (port) {
  const [v4, v6] = await Promise.all([accepts('127.0.0.1', port), accepts('::1', port)])
  return v4 ? '127.0.0.1' : v6 ? '::1' : undefined
}

/**
 * The loopback address of the other family: where a server that listens
 * on one family only may be found.
 * @param {string} hostname
 */
export function otherLoopback (hostname) {
  if (hostname === '127.0.0.1') return '::1'
  if (hostname === '::1') return '127.0.0.1'
  return undefined
}

/** @param {string} hostname */
export function isLocalhost (hostname) {
  return hostname.toLowerCase() === 'localhost'
}
