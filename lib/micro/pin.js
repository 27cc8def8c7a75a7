import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/**
 * Gathers the processes of a round on one CPU before they sample. The CPUs
 * of a shared machine do not run at the same speed (another job, a
 * neighbour on the host), and a process stays on the CPU it started on: two
 * processes of a round that sample on different CPUs differ by that CPU's
 * luck, which pairing cannot cancel. On Linux, util-linux's taskset moves
 * them; elsewhere, or without taskset, they stay where they are.
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
  if (unavailable || pids.length === 0) return null
  const cpu = currentCpu(pids[0])
  if (cpu === null) return null
  for (const pid of pids) {
    const pinned = spawnSync('taskset', ['-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' })
    if (pinned.error) unavailable = true // no taskset on this machine: do not try again
    if (pinned.status !== 0) return null
  }
  return cpu
}
