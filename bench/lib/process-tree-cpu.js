import { readFileSync, readdirSync } from 'node:fs'
import { processesCpuMs } from '../../lib/system/process-cpu.js'

/**
 * CPU time (ms) used so far by a process and every process under it, all
 * their threads, from Linux's /proc.
 * @param {number} root a process id
 * @returns {number | null}
 */
export function treeCpuMs (root) {
  if (process.platform !== 'linux') return null
  /** @type {Map<number, number>} */
  const parents = new Map()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const parent = parentOf(Number(name))
    if (parent !== null) parents.set(Number(name), parent)
  }
  const inTree = (/** @type {number} */ pid) => {
    for (let p = pid, depth = 0; p > 1 && depth < 64; p = parents.get(p) ?? 0, depth++) if (p === root) return true
    return false
  }
  return processesCpuMs([...parents.keys()].filter(inTree))
}

/** The ppid of a process, from /proc/<pid>/stat; null when it is gone. @param {number} pid */
function parentOf (pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return null
  }
}
