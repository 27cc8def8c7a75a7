import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const DYNO = fileURLToPath(new URL('../../bin/dyno.js', import.meta.url))

/**
 * What a run must still print before the test signals it (signalWhenPrinted):
 * a run that ends or times out first fails saying so, not with the exit code
 * of a run that was never signalled.
 * @type {WeakMap<import('node:child_process').ChildProcess, string>}
 */
const awaitedOutput = new WeakMap()

/**
 * Runs the dyno CLI in a child process with the current Node binary.
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, timeout?: number, onSpawn?: (child: import('node:child_process').ChildProcess) => void }} [options]
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string }>}
 */
export function runDyno (args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DYNO, ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d })
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d })
    const timeout = options.timeout ?? 30_000
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      const waiting = awaitedOutput.get(child)
      reject(new Error(`dyno ${args.join(' ')} did not finish within ${timeout / 1000} s${waiting ? `; it never printed ${waiting}` : ''}\nstdout: ${stdout}\nstderr: ${stderr}`))
    }, timeout)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const waiting = awaitedOutput.get(child)
      if (waiting) reject(new Error(`dyno ${args.join(' ')} ended (code ${code}, signal ${signal}) without printing ${waiting}\nstdout: ${stdout}\nstderr: ${stderr}`))
      else resolve({ code, signal, stdout, stderr })
    })
    options.onSpawn?.(child)
  })
}

/**
 * The one line a command wrote to stderr; fails when it wrote more or less.
 * @param {string} stderr
 */
export function oneLine (stderr) {
  const lines = stderr.trim().split('\n')
  assert.equal(lines.length, 1, `expected one line, got:\n${stderr}`)
  return lines[0]
}

/**
 * Sends `signal` to a dyno run once its output shows `text`: a test signals
 * a run when it has reached that point, however slowly the machine started it.
 * A run started by runDyno that ends, or reaches its timeout, without
 * printing `text` fails with a message that says so.
 * @param {import('node:child_process').ChildProcess} child
 * @param {string} text
 * @param {NodeJS.Signals} signal
 */
export function signalWhenPrinted (child, text, signal) {
  awaitedOutput.set(child, `"${text}", on which the test sends ${signal}`)
  let seen = ''
  /** @param {string} chunk */
  const watch = (chunk) => {
    seen += chunk
    if (!seen.includes(text)) return
    child.stdout?.off('data', watch)
    child.stderr?.off('data', watch)
    awaitedOutput.delete(child)
    child.kill(signal)
  }
  child.stdout?.on('data', watch)
  child.stderr?.on('data', watch)
}
