import { readFileSync, readdirSync } from 'node:fs'

/**
 * CPU time (ms) used so far by a process and every process under it, all
 * their threads, from Linux's /proc: the scheduler's own nanoseconds where
 * it has them (schedstat), the clock ticks of `stat` where not.
 * @param {number} root a process id
 */
export function treeCpuMs (root) {
  /** @type {Map<number, number>} */
  const parents = new Map()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const fields = statFields(Number(name))
    if (fields) parents.set(Number(name), Number(fields[1]))
  }
  const inTree = (/** @type {number} */ pid) => {
    for (let p = pid, depth = 0; p > 1 && depth < 64; p = parents.get(p) ?? 0, depth++) if (p === root) return true
    return false
  }
  let ms = 0
  for (const pid of parents.keys()) if (inTree(pid)) ms += processCpuMs(pid)
  return ms
}

/** @param {number} pid */
function processCpuMs (pid) {
  try {
    let ns = 0
    for (const tid of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
    return ns / 1e6
  } catch {
    const fields = statFields(pid)
    // utime and stime, in clock ticks of (nearly always) 10 ms.
    return fields ? (Number(fields[11]) + Number(fields[12])) * 10 : 0
  }
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
