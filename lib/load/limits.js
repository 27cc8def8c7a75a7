import { readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { dynoError } from '../errors.js'

/**
 * What this machine and process allow a run, checked before it starts: past
 * them a run fails late and blames the target (`connect EMFILE`), or
 * allocates until it dies.
 */

/** Requests in flight on one connection, at most. */
export const MAX_PIPELINING = 10_000
/** Requests in flight in all (connections × pipelining): each takes a slot in its connection's ring. */
export const MAX_IN_FLIGHT = 1_000_000
/** Files this process holds besides the sockets, and what each worker thread adds. */
const SPARE_FILES = 32
const FILES_PER_WORKER = 8

/** @type {number | null | undefined} */
let cachedLimit

/**
 * This process's open-file limit (`ulimit -n`; Node raises it to the hard
 * limit at start), or null where it cannot be read.
 */
export function openFileLimit () {
  if (cachedLimit !== undefined) return cachedLimit
  cachedLimit = null
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'))
    if (line) cachedLimit = line[1] === 'unlimited' ? Infinity : Number(line[1])
  } catch {
    if (process.platform !== 'win32') {
      try {
        // A child inherits this process's limit.
        /** @type {typeof import('node:child_process')} */
        const { execFileSync } = createRequire(import.meta.url)('node:child_process')
        const text = execFileSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8', timeout: 2000 }).trim()
        cachedLimit = text === 'unlimited' ? Infinity : Number(text) || null
      } catch {}
    }
  }
  return cachedLimit
}

/** Files this process has open now; an estimate where it cannot tell. */
function filesOpen () {
  for (const dir of ['/proc/self/fd', '/dev/fd']) {
    try {
      return readdirSync(dir).length
    } catch {}
  }
  return SPARE_FILES
}

/**
 * Local ports one address can use towards one destination: every
 * connection to the target takes one.
 */
export function localPorts () {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number)
    if (high >= low) return high - low + 1
  } catch {}
  return 65535 - 1024
}

/**
 * Sockets this run may open: the open-file limit less what is open and what
 * the workers need, and the local ports.
 * @param {number} workers
 */
export function socketBudget (workers, unixSocket = false) {
  const limit = openFileLimit()
  const files = limit === null ? Infinity : limit - filesOpen() - SPARE_FILES - FILES_PER_WORKER * workers
  // A unix socket takes a file and no local port.
  const ports = unixSocket ? Infinity : localPorts()
  return { sockets: Math.max(0, Math.min(files, ports)), limit, ports }
}

/**
 * Throws when the run asks for more than the machine allows. Returns how
 * many connections the open model may grow to: `maxConnections` when the
 * user chose it, else the default, cut down to what the machine allows.
 * @param {{ connections: number, pipelining: number, streams: number, workers: number, maxConnections: number, maxConnectionsGiven: boolean, openModel: boolean, socket: boolean }} run
 */
export function checkLimits (run) {
  const { connections, workers } = run
  if (run.pipelining > MAX_PIPELINING) {
    throw dynoError('DYNO_OVER_LIMIT.pipelining', { pipelining: run.pipelining, max: count(MAX_PIPELINING) })
  }
  if (run.streams > MAX_PIPELINING) {
    throw dynoError('DYNO_OVER_LIMIT.streams', { streams: run.streams, max: count(MAX_PIPELINING) })
  }
  // Requests in flight on one connection: pipelined on HTTP/1.1, as streams on HTTP/2.
  const pipelining = Math.max(run.pipelining, run.streams)
  const cores = availableParallelism()
  const maxWorkers = Math.max(16, 4 * cores)
  if (workers > maxWorkers) {
    throw dynoError('DYNO_OVER_LIMIT.workers', { workers, cores, max: maxWorkers })
  }
  const budget = socketBudget(workers, run.socket)
  const check = (/** @type {number} */ n, /** @type {string} */ flag) => {
    if (n <= budget.sockets) return
    if (n > budget.ports) {
      throw dynoError(process.platform === 'linux' ? 'DYNO_OVER_LIMIT.portsLinux' : 'DYNO_OVER_LIMIT.ports', { flag, n, ports: count(budget.ports) })
    }
    const wanted = niceCeil(n + (budget.limit ?? 0) - budget.sockets)
    throw dynoError('DYNO_OVER_LIMIT.openFiles', { flag, n, sockets: count(budget.sockets), limit: String(budget.limit), wanted })
  }
  check(connections, '-c')
  if (connections * pipelining > MAX_IN_FLIGHT) {
    const flag = run.streams > run.pipelining ? '--streams' : '-p'
    throw dynoError('DYNO_OVER_LIMIT.inFlight', { connections, flag, pipelining, inFlight: count(connections * pipelining), max: count(MAX_IN_FLIGHT) })
  }
  if (!run.openModel) return run.maxConnections
  if (run.maxConnectionsGiven) {
    check(run.maxConnections, '--max-connections')
    return run.maxConnections
  }
  return Math.max(connections, Math.min(run.maxConnections, budget.sockets))
}

/** @param {number} n */
function count (n) {
  return n.toLocaleString('en-US')
}

/** Rounded up to two significant digits: 20,817 → 21,000. @param {number} n */
function niceCeil (n) {
  const step = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1)
  return Math.ceil(n / step) * step
}
