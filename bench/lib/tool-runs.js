import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'

/**
 * What the benchmarks of tools that observe an app (flame, doctor) share:
 * the load as a shell command every tool can run once the app listens, and
 * the runs themselves.
 */

/**
 * `dyno load` pinned to CPU 1, writing its JSON result to `out`; `$PORT` is
 * left for the tool (or `runPlain`) to fill in.
 * @param {string} dyno the path of bin/dyno.js
 * @param {number} duration seconds
 * @param {string} out
 */
export function loadCommand (dyno, duration, out) {
  return `taskset -c 1 "${process.execPath}" "${dyno}" load -c 50 -d ${duration} --json http://127.0.0.1:$PORT/ > "${out}"`
}

/**
 * Runs a command to its end; rejects when it fails.
 * @param {string[]} command
 * @param {string} cwd
 * @param {NodeJS.ProcessEnv} [env]
 */
export function runCommand (command, cwd, env = process.env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), { cwd, env, stdio: ['ignore', 'ignore', 'inherit'] })
    child.on('error', reject)
    child.on('exit', (code) => code === 0 ? resolve(undefined) : reject(new Error(`${command.join(' ')} exited with ${code}`)))
  })
}

/**
 * The app alone, pinned to CPU 0: start it, wait for the port it prints,
 * run the load at it, stop it.
 * @param {string} app a server that prints "listening on <port>"
 * @param {string} load the load command, with `$PORT`
 */
export async function runPlain (app, load) {
  const child = spawn('taskset', ['-c', '0', process.execPath, app], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise((resolve) => child.stdout.on('data', (d) => {
    const m = /listening on (\d+)/.exec(String(d))
    if (m) resolve(m[1])
  }))
  await runCommand(['sh', '-c', load.replace('$PORT', port)], tmpdir())
  child.kill()
  await new Promise((resolve) => child.once('exit', resolve))
}
