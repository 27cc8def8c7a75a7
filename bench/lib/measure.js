import { spawn } from 'node:child_process'

/**
 * Runs a command pinned to `cpu` and returns its output and the CPU time
 * (user + system, in seconds) the operating system charged to it and its
 * children, read with the shell's `times` builtin.
 * @param {string[]} command
 * @param {{ cpu: number }} options
 * @returns {Promise<{ stdout: string, stderr: string, cpuSeconds: number }>}
 */
export function measure (command, { cpu }) {
  const quoted = command.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ')
  const script = `taskset -c ${cpu} ${quoted}; status=$?; times >&3; exit $status`
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let times = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    const timesStream = /** @type {import('node:stream').Readable} */ (child.stdio[3])
    timesStream.on('data', (d) => { times += d })
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${command.join(' ')} exited with ${code}\n${stderr}`))
      // Second line: user and system time of the shell's children.
      const [user, system] = times.trim().split('\n')[1].split(/\s+/).map(parseShellTime)
      resolve({ stdout, stderr, cpuSeconds: user + system })
    })
  })
}

/** `1m2.500s` → 62.5 @param {string} text */
function parseShellTime (text) {
  const m = /^(\d+)m([\d.]+)s$/.exec(text)
  if (!m) throw new Error(`cannot read the time "${text}"`)
  return Number(m[1]) * 60 + Number(m[2])
}

/** @param {number[]} xs */
export function median (xs) {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}
