import { targetError, usageError } from '../errors.js'
import { accepts, isLocalhost, otherLoopback } from './loopback.js'

/**
 * What a failed connection means: the kind each socket error counts as,
 * and the one line a user reads when the first connection to the target
 * fails (nothing listening, a host that does not resolve, a certificate
 * that does not verify).
 */

/** @typedef {{ hostname: string, port: number, tls?: boolean, ca?: unknown }} TargetAddress */

/**
 * As `describeConnectError`, and when a loopback address refuses, whether the
 * other family's answers: a server that listens on ::1 alone is a common trap.
 * @param {NodeJS.ErrnoException} err
 * @param {TargetAddress} target
 */
export async function explainConnectError (err, target) {
  const other = err.code === 'ECONNREFUSED' ? otherLoopback(target.hostname) : undefined
  if (other !== undefined && await accepts(other, target.port)) {
    const family = other === '::1' ? 'IPv6' : 'IPv4'
    return targetError('DYNO_TARGET_REFUSED', `nothing is listening on ${where(target.hostname, target.port)}, but ${where(other, target.port)} accepts connections: the server listens on ${family} only; put ${other === '::1' ? '[::1]' : other} or localhost in the URL`, err)
  }
  return describeConnectError(err, target)
}

/**
 * @param {NodeJS.ErrnoException} err
 * @param {TargetAddress} target
 */
function describeConnectError (err, target) {
  const at = where(target.hostname, target.port)
  switch (err.code) {
    case 'ECONNREFUSED': {
      const tried = isLocalhost(target.hostname) ? ' (neither 127.0.0.1 nor ::1)' : ''
      return targetError('DYNO_TARGET_REFUSED', `nothing is listening on ${at}${tried}; start the server first, or check the port`, err)
    }
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return usageError('DYNO_BAD_URL', `cannot resolve the host in ${at}; check the URL`)
    case 'EADDRNOTAVAIL':
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return targetError('DYNO_TARGET_UNREACHABLE', `cannot reach ${at} (${err.code})`, err)
    case 'ETIMEDOUT':
      return targetError('DYNO_TARGET_TIMEOUT', `${at} did not accept a connection in time; is the server overloaded or the port filtered?`, err)
    case 'ECONNRESET':
      return targetError('DYNO_TARGET_RESET', `${at} reset the connection at once; is it an HTTP server?`, err)
    case 'EMFILE':
    case 'ENFILE':
      return usageError('DYNO_OVER_LIMIT', `this process ran out of open files while connecting to ${at} (${err.code}); lower -c, or raise the open-file limit (ulimit -n)`)
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return usageError('DYNO_BAD_URL', `${at} does not speak TLS (it answered in plain text); for a plain HTTP server, use http:// in the URL`)
  }
  if (isCertificateError(err.code)) {
    const hint = target.ca !== undefined
      ? 'is the --ca file the authority that signed it? --insecure skips verification'
      : 'pass --ca <file> to trust its issuer, or --insecure to skip verification'
    return targetError('DYNO_TLS_CERTIFICATE', `the certificate of ${at} does not verify (${reason(err)}); ${hint}`, err)
  }
  if (isTlsError(err.code)) {
    return targetError('DYNO_TLS_FAILED', `TLS handshake with ${at} failed (${reason(err)}); is it an https:// server?`, err)
  }
  return targetError('DYNO_TARGET_FAILED', `cannot connect to ${at}: ${reason(err)}`, err)
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
