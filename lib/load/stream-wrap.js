/**
 * Node's stream_wrap binding: the shared state through which its socket
 * handles report a read's size and a write's outcome. dyno reads and writes
 * plain sockets through their handles with it (raw-read.js, raw-write.js),
 * past the cost of Node's streams. It is Node's internal API, so each user
 * checks the shape it needs at run time, and everything falls back to the
 * public API when the binding is out of reach.
 */

/** @type {any} */
let cached

/**
 * The binding, or null when reaching it would print a deprecation warning
 * (process.binding() warns under --pending-deprecation) or Node refuses it.
 * @returns {any}
 */
export function streamWrap () {
  if (cached === undefined) cached = probe()
  return cached
}

function probe () {
  const options = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`
  if (options.includes('--pending-deprecation') || process.env.NODE_PENDING_DEPRECATION === '1') return null
  try {
    // eslint-disable-next-line n/no-deprecated-api -- stream_wrap is in its allow list, and every user of it fails safe
    const binding = /** @type {any} */ (process).binding('stream_wrap')
    return binding?.streamBaseState instanceof Int32Array ? binding : null
  } catch {
    return null
  }
}
