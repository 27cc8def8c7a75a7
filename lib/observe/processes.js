import { readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'

/**
 * Reads what the agents wrote into `<runDir>/raw/` (see lib/agent/): for each
 * process, and each worker thread of one (`<pid>-<threadId>.*`), who it was,
 * where it listened, how observing ended, and the files each collector wrote.
 *
 * @typedef {object} ProcessInfo
 * @property {number} pid
 * @property {number} [threadId]
 * @property {number} ppid
 * @property {string[]} argv
 * @property {string[]} execArgv
 * @property {string} cwd
 * @property {string} node
 * @property {string} v8
 * @property {string} startedAt
 *
 * @typedef {object} ProcessEnd
 * @property {string} how 'stopped' (dyno asked), 'exit', 'channel-closed'
 * @property {number | null} code
 * @property {{ name: string, message: string } | null} uncaught
 *
 * @typedef {object} ProcessRecord a process's main thread, or one of its worker threads
 * @property {string} unit `<pid>` for a main thread, `<pid>-<threadId>` for a worker thread
 * @property {number} pid
 * @property {number} threadId 0 for the main thread
 * @property {ProcessInfo | null} info
 * @property {{ port: number, address: string } | null} listening
 * @property {ProcessEnd | null} end
 * @property {Record<string, string[]>} files each collector's files (full paths), by collector name, in name order
 */

/**
 * @param {string} runDir
 * @returns {ProcessRecord[]}
 */
export function readProcesses (runDir) {
  const dir = join(runDir, 'raw')
  let names
  try {
    names = readdirSync(dir).sort()
  } catch {
    return []
  }
  /** @type {Map<string, ProcessRecord>} */
  const byUnit = new Map()
  for (const name of names) {
    const m = /^((\d+)(?:-(\d+))?)\.(?:(process|listening|end)\.json|([a-z][a-z-]*)\..+)$/.exec(name)
    if (!m) continue
    let r = byUnit.get(m[1])
    if (!r) byUnit.set(m[1], (r = { unit: m[1], pid: Number(m[2]), threadId: Number(m[3] ?? 0), info: null, listening: null, end: null, files: {} }))
    if (m[4] === 'process') r.info = readJsonOrNull(join(dir, name))
    else if (m[4] === 'listening') r.listening = readJsonOrNull(join(dir, name))
    else if (m[4] === 'end') r.end = readJsonOrNull(join(dir, name))
    else (r.files[m[5]] ??= []).push(join(dir, name))
  }
  return [...byUnit.values()]
}

/**
 * One of a process's files by what follows `<pid>.<collector>.`, or null.
 * @param {ProcessRecord} process @param {string} collector @param {string} suffix
 */
export function collectorFile (process, collector, suffix) {
  const wanted = `${process.unit}.${collector}.${suffix}`
  return process.files[collector]?.find((file) => basename(file) === wanted) ?? null
}

/**
 * The process worth showing: the one dyno loaded, else one that listened
 * (the server), else the busiest by the caller's measure (a script run
 * through npm is npm's child). Its main thread, that is.
 * @param {ProcessRecord[]} units
 * @param {(r: ProcessRecord) => number} busy
 * @param {number | null} [loadedPid] the process whose port the load went to
 */
export function chooseProcess (units, busy, loadedPid = null) {
  const processes = units.filter((p) => p.threadId === 0)
  const loaded = processes.find((p) => p.pid === loadedPid)
  if (loaded) return loaded
  const listeners = processes.filter((p) => p.listening)
  if (listeners.length > 0) return listeners[0]
  return busiest(processes, busy)
}

/**
 * Of the processes that listened on the chosen one's port, the busiest by the
 * caller's measure: in a cluster the primary listens first, and its workers
 * serve. The chosen process itself when no other shared its port.
 * @param {ProcessRecord[]} units
 * @param {ProcessRecord} chosen
 * @param {(r: ProcessRecord) => number} busy
 * @returns {{ process: ProcessRecord, sharing: number }} sharing: how many listened on that port, itself included
 */
export function busiestOnPort (units, chosen, busy) {
  const port = chosen.listening?.port
  const sharing = units.filter((p) => p.threadId === 0 && p.listening && p.listening.port === port)
  if (port === undefined || port === null || sharing.length < 2) return { process: chosen, sharing: 1 }
  return { process: busiest(sharing, busy) ?? chosen, sharing: sharing.length }
}

/**
 * The first of the busiest by `busy`, or null when there are none.
 * @param {ProcessRecord[]} processes
 * @param {(r: ProcessRecord) => number} busy
 */
function busiest (processes, busy) {
  let best = null
  let bestBusy = -1
  for (const p of processes) {
    const b = busy(p)
    if (b > bestBusy) {
      best = p
      bestBusy = b
    }
  }
  return best
}

/** @param {string} path @returns {any} */
function readJsonOrNull (path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return null
  }
}
