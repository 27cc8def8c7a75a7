import { resolve } from 'node:path'
import { dynoError } from '../errors.js'
import { unixUrl } from '../load/options.js'

const PORT = /\$\{?PORT\}?/g
/** In a --load, the unix socket the app listens on, as `$PORT` is its port. */
export const SOCKET = '$SOCKET'

/**
 * The unix socket a load goes to, as written (`$SOCKET` included), or null
 * for a load of a host and port.
 * @param {{ url: string, socketPath?: string }} load
 */
export function loadSocket (load) {
  return load.socketPath ?? unixUrl(load.url)?.socketPath ?? null
}

/**
 * Whether the load names where the app listens, whatever it is: `$PORT` in
 * its URL, or `$SOCKET` as its socket.
 * @param {{ url: string, socketPath?: string }} load
 */
export function namesAppAddress (load) {
  return holdsPort(load.url) || loadSocket(load) === SOCKET
}

/**
 * The load for the app that listens at `listening`: `$PORT` and `$SOCKET` filled in.
 * @template {{ url: string, socketPath?: string }} T
 * @param {T} load @param {import('./app.js').AgentListening} listening
 * @returns {T}
 */
export function loadFor (load, listening) {
  const socket = loadSocket(load)
  if (socket === null) return { ...load, url: withPort(load.url, /** @type {number} */ (listening.port)) }
  const path = socket === SOCKET ? /** @type {string} */ (listening.path) : socket
  const unix = unixUrl(load.url)
  // Over a socket, the URL's port says only what the Host header carries.
  return { ...load, url: unix === null ? withPort(load.url, listening.port ?? 80) : `http://localhost${unix.path}`, socketPath: path }
}

/**
 * The load's URL with `$PORT` (or `${PORT}`) replaced.
 * @param {string} url @param {number} port
 */
export function withPort (url, port) {
  return url.replace(PORT, String(port))
}

/** Whether the load's URL names the app's port as `$PORT`. @param {string} url */
export function holdsPort (url) {
  return url.search(PORT) !== -1
}

/**
 * Refuses a `--load` URL that cannot reach the app: one that is not a whole
 * http(s) URL (dyno load alone takes a bare host, but the app's URL needs
 * its scheme and `$PORT`), and one whose port the shell ate: in double
 * quotes, `$PORT` is replaced by the shell's own (usually empty) variable
 * before dyno sees it.
 * @param {string} url
 */
export function checkLoadUrl (url) {
  if (unixUrl(url) !== null) return
  if (/^[a-z]+:\/\/(?:\[[^\]]*\]|[^/:?#]*):(?=[/?#]|$)/i.test(url)) {
    throw dynoError('DYNO_BAD_URL.emptyPort', { url })
  }
  if (!URL.canParse(withPort(url, 1)) || !/^https?:$/.test(new URL(withPort(url, 1)).protocol)) {
    throw dynoError('DYNO_BAD_URL.notWholeUrl', { url })
  }
}

/**
 * What to tell the user when the load will not reach the app it observes.
 * @param {{ url: string, socketPath?: string }} load the --load as given
 * @param {import('./app.js').AgentListening} listening where the app listens: a port, or a socket for a socket load
 * @returns {string | null}
 */
export function loadUrlWarning (load, listening) {
  const socket = loadSocket(load)
  if (socket !== null) {
    return socket !== SOCKET && listening.path !== undefined && resolve(socket) !== listening.path
      ? `the --load goes to the unix socket ${socket}, but the app listens on ${listening.path}; write --socket '$SOCKET' to load the app's`
      : null
  }
  const url = load.url
  if (listening.port === null) return null
  const target = new URL(withPort(url, listening.port))
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80))
  if (!holdsPort(url) && port !== listening.port) {
    return `the --load URL goes to port ${port}, but the app listens on ${listening.port}; write $PORT in the URL (in single quotes) to load the app`
  }
  const host = target.hostname.replace(/^\[|\]$/g, '')
  if (listening.address === '::1' && (host === '127.0.0.1' || host === 'localhost')) {
    return `the app listens on ::1 only, so ${target.host} may not reach it; load http://[::1]:$PORT/ instead`
  }
  if (listening.address === '127.0.0.1' && host === '::1') {
    return 'the app listens on 127.0.0.1 only, so [::1] does not reach it; load http://127.0.0.1:$PORT/ instead'
  }
  return null
}
