import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/**
 * What Linux's /proc says of a running process, for `--pid`: who it is, its
 * command line and NODE_OPTIONS, and the TCP ports its sockets listen on.
 * Nothing here sends the process anything.
 *
 * @typedef {object} ProcessFacts
 * @property {string | null} exe the program it runs (null when /proc keeps it from us)
 * @property {string[]} argv
 * @property {string | null} nodeOptions its NODE_OPTIONS, or null when it has none or they cannot be read
 * @property {string} cwd
 *
 * @typedef {{ host: string, port: number, inode: string }} ListeningPort
 */

/** @param {number} pid @returns {ProcessFacts} */
export function processFacts (pid) {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
  if (argv.at(-1) === '') argv.pop()
  return { exe: readLink(`/proc/${pid}/exe`), argv, nodeOptions: environmentVariable(pid, 'NODE_OPTIONS'), cwd: readLink(`/proc/${pid}/cwd`) ?? '' }
}

/**
 * Whether a process still lives: a zombie does not.
 * @param {number} pid
 */
export function isAlive (pid) {
  try {
    process.kill(pid, 0)
  } catch (err) {
    // EPERM: it lives, and is someone else's.
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM'
  }
  return processState(pid) !== 'Z'
}

/**
 * The process's state letter in /proc (R running, S sleeping, T stopped,
 * t stopped by a tracer, Z zombie …), or null when it cannot be read.
 * @param {number} pid
 */
export function processState (pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    // After the command's name, which may hold spaces and parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)
  } catch {
    return null
  }
}

/**
 * The process's children that are its cluster's workers (Node gives each a
 * NODE_UNIQUE_ID).
 * @param {number} pid
 * @returns {number[]}
 */
export function clusterWorkers (pid) {
  return nodeChildren(pid).filter((child) => environmentVariable(child, 'NODE_UNIQUE_ID') !== null)
}

/**
 * The process's children that run Node.js.
 * @param {number} pid
 * @returns {number[]}
 */
export function nodeChildren (pid) {
  /** @type {number[]} */
  const children = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1')
      // The fields after the command's name, which may hold spaces and parentheses: state, then the parent's pid.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (parent === pid && /(^|\/)node[^/]*$/.test(readLink(`/proc/${name}/exe`) ?? '')) children.push(Number(name))
    } catch {}
  }
  return children.sort((a, b) => a - b)
}

/**
 * The TCP ports the process's sockets listen on.
 * @param {number} pid
 * @returns {ListeningPort[]}
 */
export function listeningPorts (pid) {
  const inodes = socketInodes(pid)
  return listeningSockets().filter((s) => inodes.has(s.inode))
}

/**
 * Who listens on a TCP port: null when nothing does; the pid when /proc lets
 * us see it (another user's process keeps its sockets to itself).
 * @param {number} port
 * @returns {{ pid: number | null } | null}
 */
export function portListener (port) {
  const wanted = new Set(listeningSockets().filter((s) => s.port === port).map((s) => s.inode))
  if (wanted.size === 0) return null
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry)
    if (!Number.isInteger(pid)) continue
    for (const inode of socketInodes(pid)) if (wanted.has(inode)) return { pid }
  }
  return { pid: null }
}

/** Every listening TCP socket of the machine's (this network namespace's) @returns {ListeningPort[]} */
function listeningSockets () {
  /** @type {ListeningPort[]} */
  const sockets = []
  for (const table of ['tcp', 'tcp6']) {
    let text
    try {
      text = readFileSync(`/proc/net/${table}`, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      // "sl local_address rem_address st …  inode": st 0A is LISTEN.
      if (fields.length < 10 || fields[3] !== '0A') continue
      const [hexHost, hexPort] = fields[1].split(':')
      sockets.push({ host: hostOf(hexHost), port: parseInt(hexPort, 16), inode: fields[9] })
    }
  }
  return sockets
}

/** @param {number} pid @returns {Set<string>} */
function socketInodes (pid) {
  const inodes = new Set()
  let fds
  try {
    fds = readdirSync(`/proc/${pid}/fd`)
  } catch {
    return inodes
  }
  for (const fd of fds) {
    const match = /^socket:\[(\d+)\]$/.exec(readLink(`/proc/${pid}/fd/${fd}`) ?? '')
    if (match) inodes.add(match[1])
  }
  return inodes
}

/**
 * /proc/net's hex address: IPv4 as one little-endian word, IPv6 as four.
 * @param {string} hex
 */
function hostOf (hex) {
  if (hex.length === 8) return [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.')
  if (hex === '00000000000000000000000001000000') return '::1'
  if (/^0{32}$/.test(hex)) return '::'
  if (hex.startsWith('0000000000000000FFFF0000')) return hostOf(hex.slice(24))
  return 'ipv6'
}

/** @param {number} pid @param {string} name */
function environmentVariable (pid, name) {
  try {
    const prefix = `${name}=`
    const entry = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((e) => e.startsWith(prefix))
    return entry === undefined ? null : entry.slice(prefix.length)
  } catch {
    return null
  }
}

/** @param {string} path */
function readLink (path) {
  try {
    return readlinkSync(path)
  } catch {
    return null
  }
}
