/**
 * Shares of one load. A load split into parts (generators with
 * `--segment i/n`, and inside one generator its worker threads) is striped as
 * k6 stripes its execution segments: of the whole's items (connections,
 * requests, requests due at the rate) numbered from 0, part p of P takes
 * those whose number is p modulo P. Every share follows from the part's
 * place alone, with no coordinator, and the shares add up to the whole
 * exactly: `-a 1000` over 3 parts is 334 + 333 + 333. At a rate, the parts'
 * requests interleave (part p sends the whole's requests p, p + P, …), so n
 * generators together send at the whole rate, evenly spaced, not in bursts.
 *
 * @typedef {object} Part
 * @property {number} index from 0
 * @property {number} count how many parts the whole is split in
 */

/**
 * A place among parts of parts (a worker of a generator's segment) as one
 * stripe of the whole: the part takes the items `phase + k * stride`.
 * @param {Part[]} splits outermost first
 */
export function stripe (splits) {
  let phase = 0
  let stride = 1
  for (const { index, count } of splits) {
    phase += index * stride
    stride *= count
  }
  return { phase, stride }
}

/**
 * How many of the whole's `total` items a stripe takes.
 * @param {number} total Infinity for no limit
 * @param {{ phase: number, stride: number }} at
 */
export function shareOf (total, { phase, stride }) {
  if (!Number.isFinite(total)) return total
  return Math.max(0, Math.ceil((total - phase) / stride))
}

/**
 * `--segment i/n`: the index counts from 0, as a Kubernetes Indexed Job's
 * JOB_COMPLETION_INDEX does. Returns null when the text is not of that form
 * or i is not below n.
 * @param {string} text
 * @returns {Part | null}
 */
export function parseSegment (text) {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text)
  if (!m) return null
  const index = Number(m[1])
  const count = Number(m[2])
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index >= count) return null
  return { index, count }
}
