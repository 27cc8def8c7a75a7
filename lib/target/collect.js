import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ProfileMerger } from '../analyze/cpuprofile.js'

/**
 * Reads what the agents wrote into `<runDir>/raw/` (see lib/agent/session.cjs).
 *
 * @typedef {object} ProcessRecord
 * @property {number} pid
 * @property {{ pid: number, ppid: number, argv: string[], execArgv: string[], cwd: string, node: string, v8: string, startedAt: string } | null} info
 * @property {{ port: number, address: string } | null} listening
 * @property {{ how: string, code: number | null, uncaught: { name: string, message: string } | null } | null} end
 * @property {string[]} chunks chunk files in order
 * @property {string | null} functions the file with function extents, when written
 * @property {string | null} tiers the file with what V8 said of optimization, when written
 */

/**
 * @param {string} runDir
 * @returns {ProcessRecord[]}
 */
export function readProcesses (runDir) {
  const dir = join(runDir, 'raw')
  let names
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  /** @type {Map<number, ProcessRecord>} */
  const byPid = new Map()
  const record = (/** @type {number} */ pid) => {
    let r = byPid.get(pid)
    if (!r) byPid.set(pid, (r = { pid, info: null, listening: null, end: null, chunks: [], functions: null, tiers: null }))
    return r
  }
  const json = (/** @type {string} */ name) => {
    try {
      return JSON.parse(readFileSync(join(dir, name), 'utf8'))
    } catch {
      return null
    }
  }
  for (const name of names) {
    const m = /^(\d+)\.(?:(\d+)\.cpuprofile|(process|listening|end|functions|tiers)\.json)$/.exec(name)
    if (!m) continue
    const r = record(Number(m[1]))
    if (m[2] !== undefined) r.chunks.push(name)
    else if (m[3] === 'process') r.info = json(name)
    else if (m[3] === 'listening') r.listening = json(name)
    else if (m[3] === 'end') r.end = json(name)
    else if (m[3] === 'functions') r.functions = join(dir, name)
    else r.tiers = join(dir, name)
  }
  for (const r of byPid.values()) {
    r.chunks.sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]))
    r.chunks = r.chunks.map((name) => join(dir, name))
  }
  return [...byPid.values()]
}

/**
 * The process worth showing: the one dyno loaded, else one that listened
 * (the server), else the one that spent the most CPU (a script run through
 * npm is npm's child).
 * @param {ProcessRecord[]} processes
 * @param {(r: ProcessRecord) => number} busy samples a process took that were not idle
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

/**
 * The chunks of one process merged into one profile. A chunk cut short by a
 * crash (unreadable JSON) is skipped; the others are kept.
 * @param {ProcessRecord} process
 */
export function mergedProfile (process) {
  const merger = new ProfileMerger()
  for (const file of process.chunks) {
    let chunk
    try {
      chunk = JSON.parse(readFileSync(file, 'utf8'))
    } catch {
      continue
    }
    merger.add(chunk)
  }
  return merger.result()
}

/**
 * Samples that were not idle, from the chunks' node tables.
 * @param {ProcessRecord} process
 */
export function busySamples (process) {
  const profile = mergedProfile(process)
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(root)').map((n) => n.id))
  return (profile.samples ?? []).filter((id) => !idle.has(id)).length
}
