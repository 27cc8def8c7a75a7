import { readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'

/**
 * Reads what the agents wrote into `<runDir>/raw/` (see lib/agent/): for each
 * process, who it was, where it listened, how observing ended, and the files
 * each collector wrote.
 *
 * @typedef {object} ProcessInfo
 * @property {number} pid
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
 * @typedef {object} ProcessRecord
 * @property {number} pid
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
  /** @type {Map<number, ProcessRecord>} */
  const byPid = new Map()
  const record = (/** @type {number} */ pid) => {
    let r = byPid.get(pid)
    if (!r) byPid.set(pid, (r = { pid, info: null, listening: null, end: null, files: {} }))
    return r
  }
  for (const name of names) {
    const m = /^(\d+)\.(?:(process|listening|end)\.json|([a-z][a-z-]*)\..+)$/.exec(name)
    if (!m) continue
    const r = record(Number(m[1]))
    if (m[2] === 'process') r.info = readJsonOrNull(join(dir, name))
    else if (m[2] === 'listening') r.listening = readJsonOrNull(join(dir, name))
    else if (m[2] === 'end') r.end = readJsonOrNull(join(dir, name))
    else (r.files[m[3]] ??= []).push(join(dir, name))
  }
  return [...byPid.values()]
}

/**
 * One of a process's files by what follows `<pid>.<collector>.`, or null.
 * @param {ProcessRecord} process @param {string} collector @param {string} suffix
 */
export function collectorFile (process, collector, suffix) {
  const wanted = `${process.pid}.${collector}.${suffix}`
  return process.files[collector]?.find((file) => basename(file) === wanted) ?? null
}

/**
 * The process worth showing: the one dyno loaded, else one that listened
 * (the server), else the busiest by the caller's measure (a script run
 * through npm is npm's child).
 * @param {ProcessRecord[]} processes
 * @param {(r: ProcessRecord) => number} busy
 * @param {number | null} [loadedPid] the process whose port the load went to
 */
export function chooseProcess (processes, busy, loadedPid = null) {
  const loaded = processes.find((p) => p.pid === loadedPid)
  if (loaded) return loaded
  const listeners = processes.filter((p) => p.listening)
  if (listeners.length > 0) return listeners[0]
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
