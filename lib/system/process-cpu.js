import { existsSync, readFileSync, readdirSync } from 'node:fs'

/**
 * CPU time used by processes, read from Linux's /proc: the scheduler's own
 * nanoseconds where it has them (schedstat, per thread), the clock ticks of
 * `stat` where not. Elsewhere there is no /proc, and the figures are null.
 */

/**
 * CPU time (ms) used so far by every thread of these processes; null when
 * the system does not say.
 * @param {number[]} pids
 * @returns {number | null}
 */
export function processesCpuMs (pids) {
  if (process.platform !== 'linux') return null
  let ms = 0
  for (const pid of pids) ms += processCpuMs(pid)
  return ms
}

/** @param {number} pid */
function processCpuMs (pid) {
  let threads
  try {
    threads = readdirSync(`/proc/${pid}/task`)
  } catch {
    return 0 // gone
  }
  let ns = 0
  for (const tid of threads) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
    } catch (err) {
      // A thread that ended meanwhile is skipped; a kernel without schedstat gives ticks instead.
      if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT' && !existsSync(`/proc/${pid}/task/${threads[0]}/schedstat`)) return statCpuMs(pid)
    }
  }
  return ns / 1e6
}

/** utime and stime, in clock ticks of (nearly always) 10 ms. @param {number} pid */
function statCpuMs (pid) {
  const fields = statFields(pid)
  return fields ? (Number(fields[11]) + Number(fields[12])) * 10 : 0
}

/** The fields of /proc/<pid>/stat after the command's name: state, ppid, … @param {number} pid */
function statFields (pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return text.slice(text.lastIndexOf(')') + 2).split(' ')
  } catch {
    return null
  }
}
