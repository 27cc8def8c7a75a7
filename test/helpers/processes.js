import { readFileSync } from 'node:fs'

/**
 * True while a process lives. A zombie does not: it has ended, and only
 * waits for a parent (or an init that may never reap orphans) to collect it.
 * @param {number} pid
 */
export function running (pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ').at(-1)?.[0] !== 'Z'
  } catch {
    try {
      // No /proc: ask the kernel whether it exists at all.
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  }
}
