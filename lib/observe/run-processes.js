import { readdirSync, readFileSync } from 'node:fs'

/**
 * The processes of a run that still live: those in the app's process group,
 * and those that left it (setsid, a detached child) but carry the run folder
 * in their environment (DYNO_RUN_DIR), as every descendant of the command
 * does. Zombies do not count: they are dead, waiting for a parent (or an
 * init that may never reap them) to collect their exit status.
 *
 * Read from /proc; where there is none, the group alone is known.
 * @param {string} runDir
 * @param {number | undefined} group the process group (the pid of the process dyno started)
 * @returns {number[]} pids, or [-group] when only the group is known to live
 */
export function liveProcessesOfRun (runDir, group) {
  let entries
  try {
    entries = readdirSync('/proc')
  } catch {
    return group !== undefined && signalable(-group) ? [-group] : []
  }
  const needle = Buffer.from(`\0DYNO_RUN_DIR=${runDir}\0`)
  /** @type {number[]} */
  const pids = []
  for (const entry of entries) {
    const pid = Number(entry)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    const stat = readStat(pid)
    if (!stat || stat.state === 'Z') continue
    if (stat.group === group || hasInEnvironment(pid, needle)) pids.push(pid)
  }
  return pids
}

/** @param {number} pid */
function readStat (pid) {
  let text
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1')
  } catch {
    return null
  }
  // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  return { state: fields[0], group: Number(fields[2]) }
}

/** @param {number} pid @param {Buffer} needle */
function hasInEnvironment (pid, needle) {
  try {
    // A leading NUL, so that the first variable matches like the others.
    return Buffer.concat([Buffer.from('\0'), readFileSync(`/proc/${pid}/environ`)]).includes(needle)
  } catch {
    return false
  }
}

/** @param {number} pid a process, or minus a process group */
export function signalable (pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
