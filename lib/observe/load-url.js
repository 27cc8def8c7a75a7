import { dynoError } from '../errors.js'

const PORT = /\$\{?PORT\}?/g

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
  if (/^[a-z]+:\/\/(?:\[[^\]]*\]|[^/:?#]*):(?=[/?#]|$)/i.test(url)) {
    throw dynoError('DYNO_BAD_URL.emptyPort', { url })
  }
  if (!URL.canParse(withPort(url, 1)) || !/^https?:$/.test(new URL(withPort(url, 1)).protocol)) {
    throw dynoError('DYNO_BAD_URL.notWholeUrl', { url })
  }
}

/**
 * What to tell the user when the load will not reach the app it observes.
 * @param {string} url the --load URL as given
 * @param {{ port: number, address: string }} listening where the app listens
 * @returns {string | null}
 */
export function loadUrlWarning (url, listening) {
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
