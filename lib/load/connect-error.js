import { lstat, stat } from 'node:fs/promises'
import { dynoError } from '../errors.js'
import { accepts, isLocalhost, otherLoopback } from './loopback.js'

/**
 * What a failed connection means: the kind each socket error counts as,
 * and the one line a user reads when the first connection to the target
 * fails (nothing listening, a host that does not resolve, a certificate
 * that does not verify).
 */

/** @typedef {{ hostname: string, port: number, tls?: boolean, ca?: unknown, socketPath?: string }} TargetAddress */

/** The code of the error a connection makes up when the server does not speak HTTP/2: `chosen` or `why` says more. */
export const NO_HTTP2 = 'DYNO_NO_HTTP2'

/**
 * As `describeConnectError`, and when a loopback address refuses, whether the
 * other family's answers: a server that listens on ::1 alone is a common trap.
 * @param {NodeJS.ErrnoException} err
 * @param {TargetAddress} target
 */
export async function explainConnectError (err, target) {
  if (target.socketPath !== undefined) return describeSocketError(err, target.socketPath, target)
  const other = err.code === 'ECONNREFUSED' ? otherLoopback(target.hostname) : undefined
  if (other !== undefined && await accepts(other, target.port)) {
    const family = other === '::1' ? 'IPv6' : 'IPv4'
    const host = other === '::1' ? '[::1]' : other
    return dynoError('DYNO_TARGET_REFUSED.otherFamily', { at: where(target.hostname, target.port), other: where(other, target.port), family, host }, { cause: err })
  }
  return describeConnectError(err, target)
}

/**
 * @param {NodeJS.ErrnoException} err
 * @param {TargetAddress} target
 */
function describeConnectError (err, target) {
  const at = target.socketPath === undefined ? where(target.hostname, target.port) : `unix:${target.socketPath}`
  switch (err.code) {
    case NO_HTTP2: {
      const { chosen, why } = /** @type {{ chosen?: string, why?: string }} */ (err)
      if (chosen !== undefined) return dynoError('DYNO_NO_HTTP2.alpn', { at, chosen })
      return dynoError('DYNO_NO_HTTP2.cleartext', { at, why: why ?? err.message })
    }
    case 'ECONNREFUSED': {
      return dynoError(isLocalhost(target.hostname) ? 'DYNO_TARGET_REFUSED.refusedBoth' : 'DYNO_TARGET_REFUSED.refused', { at }, { cause: err })
    }
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return dynoError('DYNO_BAD_URL.unresolved', { at })
    case 'EADDRNOTAVAIL':
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return dynoError('DYNO_TARGET_UNREACHABLE', { at, code: err.code }, { cause: err })
    case 'ETIMEDOUT':
      return dynoError('DYNO_TARGET_TIMEOUT', { at }, { cause: err })
    case 'ECONNRESET':
      return dynoError('DYNO_TARGET_RESET', { at }, { cause: err })
    case 'EMFILE':
    case 'ENFILE':
      return dynoError('DYNO_OVER_LIMIT.ranOut', { at, code: err.code })
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return dynoError('DYNO_BAD_URL.notTls', { at })
  }
  if (isCertificateError(err.code)) {
    return dynoError(target.ca !== undefined ? 'DYNO_TLS_CERTIFICATE.notByCa' : 'DYNO_TLS_CERTIFICATE.untrusted', { at, why: reason(err) }, { cause: err })
  }
  if (isTlsError(err.code)) {
    return dynoError('DYNO_TLS_FAILED', { at, why: reason(err) }, { cause: err })
  }
  return dynoError('DYNO_TARGET_FAILED', { at, why: reason(err) }, { cause: err })
}

/**
 * A unix socket that could not be connected to: missing, not a socket, left
 * behind by a server that stopped, or not ours to open.
 * @param {NodeJS.ErrnoException} err
 * @param {string} path
 * @param {TargetAddress} target
 */
async function describeSocketError (err, path, target) {
  if (err.code === 'ENOENT') return dynoError('DYNO_TARGET_REFUSED.noSocket', { path }, { cause: err })
  if (err.code === 'EACCES' || err.code === 'EPERM') return dynoError('DYNO_BAD_SOCKET.denied', { path }, { cause: err })
  if (err.code === 'ECONNREFUSED' || err.code === 'ENOTSOCK') {
    const what = await fileKind(path)
    if (what !== 'a socket') return dynoError('DYNO_BAD_SOCKET.notSocket', { path, what }, { cause: err })
    return dynoError('DYNO_TARGET_REFUSED.socketRefused', { path }, { cause: err })
  }
  return describeConnectError(err, target)
}

/** What `path` leads to, or the link itself when it leads nowhere. @param {string} path */
async function statFollowing (path) {
  try {
    return await stat(path)
  } catch {
    return await lstat(path)
  }
}

/** What is at `path`, in words. @param {string} path */
async function fileKind (path) {
  try {
    // A link to a socket is a socket to connect to.
    const info = await statFollowing(path)
    if (info.isSocket()) return 'a socket'
    if (info.isDirectory()) return 'a directory'
    if (info.isFile()) return 'a regular file'
    if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device'
    if (info.isFIFO()) return 'a named pipe'
    return 'not a socket'
  } catch {
    return 'gone'
  }
}

/** `host:port`, with an IPv6 address in brackets. @param {string} hostname @param {number} port */
function where (hostname, port) {
  return `${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`
}

/**
 * The error's reason in one line: OpenSSL's messages span several lines, with
 * its source file names.
 * @param {NodeJS.ErrnoException & { reason?: string }} err
 */
function reason (err) {
  return typeof err.reason === 'string' && err.reason !== '' ? err.reason : err.message.split('\n')[0].trim()
}

/** A certificate that does not verify. @param {unknown} code an error's code */
export function isCertificateError (code) {
  return typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO|HOSTNAME/.test(code)
}

/** Any TLS failure, certificates included. @param {unknown} code an error's code */
export function isTlsError (code) {
  return isCertificateError(code) || (typeof code === 'string' && /SSL|TLS/.test(code))
}

/** A connect that never completed, as an error like the others. */
export function timedOut () {
  return Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' })
}

/**
 * The kind a socket's error counts as in the result.
 * @param {NodeJS.ErrnoException} err
 * @returns {import('./engine.js').ErrorKind}
 */
export function classifyError (err) {
  switch (err.code) {
    case 'ECONNREFUSED': return 'refused'
    case 'ECONNRESET':
    case 'EPIPE': return 'reset'
    case 'ETIMEDOUT': return 'timeout'
  }
  if (isTlsError(err.code)) return 'tls'
  return 'other'
}
