import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/**
 * Which CPUs processes run on. The CPUs of a shared machine do not run at
 * the same speed (another job, a neighbour on the host), and a process
 * tends to stay on the CPU it started on: two processes measured against
 * each other on different CPUs differ by that CPU's luck, which pairing
 * cannot cancel. On Linux, util-linux's taskset moves them; elsewhere, or
 * without taskset, they stay where they are and these functions say so.
 */

let unavailable = process.platform !== 'linux'

/**
 * The CPU a process last ran on (field 39 of /proc/<pid>/stat).
 * @param {number} pid
 * @returns {number | null}
 */
export function currentCpu (pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces; the fields after it are plain.
    const cpu = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[36])
    return Number.isInteger(cpu) ? cpu : null
  } catch {
    return null
  }
}

/**
 * Pins every process to the CPU the first one is on.
 * @param {number[]} pids
 * @returns {number | null} that CPU, or null when they could not be gathered
 */
export function gatherOnOneCpu (pids) {
  if (pids.length === 0) return null
  const cpu = currentCpu(pids[0])
  if (cpu === null) return null
  return pinProcesses(pids, String(cpu), { allThreads: false }) ? cpu : null
}

/**
 * The CPUs this process may run on, as a list like `0-3,6`; null where the
 * system does not say.
 * @returns {string | null}
 */
export function allowedCpus () {
  if (unavailable) return null
  try {
    return /^Cpus_allowed_list:\s*(\S+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? null
  } catch {
    return null
  }
}

/**
 * These processes to the CPUs of `list` (`1`, `0-3`): every thread of each,
 * or only its main thread; threads and processes they start later inherit it.
 * @param {number[]} pids
 * @param {string} list
 * @param {{ allThreads?: boolean }} [options] all threads by default
 * @returns {boolean} false when it could not be done (no taskset, a process gone)
 */
export function pinProcesses (pids, list, options = {}) {
  if (unavailable) return false
  for (const pid of pids) {
    const pinned = spawnSync('taskset', [...(options.allThreads === false ? [] : ['-a']), '-p', '-c', list, String(pid)], { stdio: 'ignore' })
    if (pinned.error) unavailable = true // no taskset on this machine: do not try again
    if (pinned.status !== 0) return false
  }
  return true
}

/**
 * The CPUs of a list (`0-3,6` → [0, 1, 2, 3, 6]).
 * @param {string} list
 * @returns {number[]}
 */
export function cpusOf (list) {
  return list.split(',').flatMap((part) => {
    const [low, high = low] = part.split('-').map(Number)
    return Array.from({ length: high - low + 1 }, (_, i) => low + i)
  })
}
