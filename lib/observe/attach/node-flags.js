/**
 * What a running Node.js process's own flags say about its inspector, read
 * from its command line and its NODE_OPTIONS: whether SIGUSR1 may open it,
 * where it would listen, whether it was opened at start. Pure, so that every
 * spelling Node accepts is tested on plain arrays.
 *
 * @typedef {object} InspectorFlags
 * @property {string} host where the inspector listens once open (Node's default: 127.0.0.1)
 * @property {number} port 9229 by default; 0 for a port the system picks
 * @property {string | null} openedAtStart the flag that opened it at start (`--inspect`, `--inspect-brk`, `--inspect-wait`), or null
 * @property {string | null} forbids the flag that keeps dyno out (`--disable-sigusr1`, `--permission`, …), or null
 */

/** Node's flags that take their value as the next word, when it is not given after `=`. */
const TAKES_VALUE = new Set([
  '-r', '--require', '--import', '--loader', '--experimental-loader', '-e', '--eval', '-p', '--print',
  '--inspect-port', '--debug-port', '--title', '-C', '--conditions', '--input-type', '--env-file',
  '--redirect-warnings', '--cpu-prof-dir', '--heap-prof-dir', '--diagnostic-dir', '--report-dir',
  '--stack-trace-limit', '--max-old-space-size', '--max-semi-space-size', '--experimental-policy', '--watch-path'
])

const OPENS_AT_START = ['--inspect', '--inspect-brk', '--inspect-wait']
/** Flags under which SIGUSR1 opens no inspector: the first ignores the signal, the others forbid the inspector. */
const FORBIDDING = ['--disable-sigusr1', '--permission', '--experimental-permission', '--experimental-policy']

/**
 * Node's own flags in a command line: those before the script (or `--`).
 * @param {string[]} argv the process's argv, the program first
 * @returns {string[]}
 */
export function nodeFlagsOf (argv) {
  const flags = []
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--' || !arg.startsWith('-') || arg === '-') break
    flags.push(arg)
    if (!arg.includes('=') && TAKES_VALUE.has(arg) && i + 1 < argv.length) flags.push(argv[++i])
  }
  return flags
}

/**
 * @param {string[]} argv the process's argv, the program first
 * @param {string[]} nodeOptions NODE_OPTIONS, split into words (Node reads it before the command line)
 * @returns {InspectorFlags}
 */
export function inspectorFlags (argv, nodeOptions) {
  /** @type {InspectorFlags} */
  const result = { host: '127.0.0.1', port: 9229, openedAtStart: null, forbids: null }
  const flags = [...nodeOptions, ...nodeFlagsOf(argv)]
  for (let i = 0; i < flags.length; i++) {
    const [name, inline] = splitFlag(flags[i])
    if (FORBIDDING.includes(name)) result.forbids ??= name
    if (OPENS_AT_START.includes(name)) {
      result.openedAtStart = name
      if (inline !== null) setAddress(result, inline)
    } else if (name === '--inspect-port' || name === '--debug-port') {
      const value = inline ?? flags[++i]
      if (value !== undefined) setAddress(result, value)
    }
  }
  return result
}

/** @param {string} flag @returns {[string, string | null]} */
function splitFlag (flag) {
  const at = flag.indexOf('=')
  // Node reads --inspect_port as --inspect-port.
  const name = (at === -1 ? flag : flag.slice(0, at)).replace(/_/g, '-')
  return [name, at === -1 ? null : flag.slice(at + 1)]
}

/**
 * `[host:]port`, as Node reads it: a port alone, a host alone, or both; an IPv6 host in brackets.
 * @param {InspectorFlags} result @param {string} value
 */
function setAddress (result, value) {
  const match = /^(?:\[([^\]]+)\]|([^:]*?))(?::(\d+))?$/.exec(value)
  if (!match) return
  const host = match[1] ?? match[2]
  if (/^\d+$/.test(host) && match[3] === undefined) {
    result.port = Number(host)
    return
  }
  if (host) result.host = host
  if (match[3] !== undefined) result.port = Number(match[3])
}

/**
 * Whether an inspector at `host` would be reachable from this machine only.
 * @param {string} host
 */
export function isLoopback (host) {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
}
