import { X509Certificate } from 'node:crypto'

/**
 * Node's TLS ignores a certificate authority it cannot read, and the run
 * then fails as if none had been given. So dyno reads it first.
 */

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g

/**
 * What is wrong with a certificate authority given as PEM text, or null.
 * @param {string | Buffer} ca
 */
export function caProblem (ca) {
  const text = Buffer.isBuffer(ca) ? ca.toString('latin1') : String(ca)
  const blocks = text.match(PEM_CERTIFICATE)
  if (blocks === null) {
    return text.includes('-----BEGIN')
      ? 'holds no certificate (a key or a request?); pass the CA certificate, in PEM'
      : 'is not a PEM certificate (it must start with -----BEGIN CERTIFICATE-----); convert a DER file with: openssl x509 -inform der -in ca.der -out ca.pem'
  }
  for (const block of blocks) {
    try {
      new X509Certificate(block) // eslint-disable-line no-new
    } catch {
      return 'holds a PEM block that is not a valid certificate'
    }
  }
  return null
}
