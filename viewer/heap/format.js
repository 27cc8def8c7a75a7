/* Signed counts, as the heap report shows them; bytes are lib/format.js's, the terminal's. */
import { formatCount } from '../shared/format.js'

/** `+1,234`, `-5`, `0` @param {number} n */
export function formatSigned (n) {
  return (n > 0 ? '+' : '') + formatCount(n)
}
