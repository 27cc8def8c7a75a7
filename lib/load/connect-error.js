import { targetError, usageError } from '../errors.js'

/**
 * The one line a user reads when the first connection to the target fails:
 * nothing listening, a host that does not resolve, a certificate that does
 * not verify.
 * @param {NodeJS.ErrnoException} err
 * @param {{ hostname: string, port: number }} target
 */
export function describeConnectError (err, target) {
  const where = `${target.hostname.includes(':') ? `[${target.hostname}]` : target.hostname}:${target.port}`
  switch (err.code) {
    case 'ECONNREFUSED':
      return targetError('DYNO_TARGET_REFUSED', `nothing is listening on ${where}; start the server first, or check the port`, err)
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return usageError('DYNO_BAD_URL', `cannot resolve the host in ${where}; check the URL`)
    case 'EADDRNOTAVAIL':
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return targetError('DYNO_TARGET_UNREACHABLE', `cannot reach ${where} (${err.code})`, err)
    case 'ETIMEDOUT':
      return targetError('DYNO_TARGET_TIMEOUT', `${where} did not accept a connection in time; is the server overloaded or the port filtered?`, err)
    case 'ECONNRESET':
      return targetError('DYNO_TARGET_RESET', `${where} reset the connection at once; is it an HTTP server?`, err)
  }
  if (isCertificateError(err.code)) {
    return targetError('DYNO_TLS_CERTIFICATE', `the certificate of ${where} does not verify (${err.message}); pass --ca <file> to trust its issuer, or --insecure to skip verification`, err)
  }
  if (isTlsError(err.code)) {
    return targetError('DYNO_TLS_FAILED', `TLS handshake with ${where} failed (${err.message}); is it an https:// server?`, err)
  }
  return targetError('DYNO_TARGET_FAILED', `cannot connect to ${where}: ${err.message}`, err)
}

/** A certificate that does not verify. @param {unknown} code an error's code */
export function isCertificateError (code) {
  return typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO|HOSTNAME/.test(code)
}

/** Any TLS failure, certificates included. @param {unknown} code an error's code */
export function isTlsError (code) {
  return isCertificateError(code) || (typeof code === 'string' && /SSL|TLS/.test(code))
}
