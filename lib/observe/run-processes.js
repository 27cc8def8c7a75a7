import { readdirSync, readFileSync } from 'node:fs'

/**
 * The processes still running that belong to a run: every process dyno
 * starts carries the run folder in its environment (DYNO_RUN_DIR), and so do
 * its descendants, even one that left the process group (setsid, a detached
 * child). Linux only (/proc); elsewhere, none beyond the group.
 * @param {string} runDir
 * @returns {number[]}
 */
export function processesOfRun (runDir) {
  let entries
  try {
    entries = readdirSync('/proc')
  } catch {
    return []
  }
  const needle = Buffer.from(`\0DYNO_RUN_DIR=${runDir}\0`)
  /** @type {number[]} */
  const pids = []
  for (const entry of entries) {
    const pid = Number(entry)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    let environ
    try {
      // Leading NUL so that the first variable matches like the others.
      environ = Buffer.concat([Buffer.from('\0'), readFileSync(`/proc/${pid}/environ`)])
    } catch {
      continue
    }
    if (environ.includes(needle)) pids.push(pid)
  }
  return pids
}
