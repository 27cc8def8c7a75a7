import { createRequire } from 'node:module'
import { dynoError } from '../errors.js'

/**
 * Node's TLS ignores a certificate authority it cannot read, and the run
 * then fails as if none had been given. So dyno reads it first.
 */

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g

/**
 * What is wrong with a certificate authority given as PEM text, as the
 * error to throw, or null.
 * @param {string | Buffer} ca
 */
export function caError (ca) {
  const text = Buffer.isBuffer(ca) ? ca.toString('latin1') : String(ca)
  const blocks = text.match(PEM_CERTIFICATE)
  if (blocks === null) return dynoError(text.includes('-----BEGIN') ? 'DYNO_BAD_CA.noCertificate' : 'DYNO_BAD_CA.notPem')
  // node:crypto loads only for a run that gives a CA.
  /** @type {typeof import('node:crypto')} */
  const { X509Certificate } = createRequire(import.meta.url)('node:crypto')
  for (const block of blocks) {
    try {
      new X509Certificate(block) // eslint-disable-line no-new
    } catch {
      return dynoError('DYNO_BAD_CA.badBlock')
    }
  }
  return null
}
