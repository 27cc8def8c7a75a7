import { spawn } from 'node:child_process'
import { once } from 'node:events'

/**
 * An app started without dyno, as a user's running server is: for --pid.
 * Resolves once it prints "listening <port>" (or "listening on http://127.0.0.1:<port>/").
 * @param {string[]} args node's arguments: its flags, the script, the script's
 * @param {{ env?: NodeJS.ProcessEnv, node?: string }} [options]
 */
export async function startRunningApp (args, options = {}) {
  const child = spawn(options.node ?? process.execPath, args, { env: { ...process.env, PORT: '0', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d })
  let stdout = ''
  const port = await new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d
      const match = /listening (?:on )?(?:http:\/\/[^/]+:)?(\d+)/.exec(stdout)
      if (match) resolve(Number(match[1]))
    })
    child.once('exit', (code) => reject(new Error(`the app exited with ${code} before it listened: ${stderr}`)))
  })
  return {
    child,
    pid: /** @type {number} */ (child.pid),
    port,
    stderr: () => stderr,
    async stop () {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      await once(child, 'exit')
    }
  }
}

/**
 * Requests to the app, one after the other, until stopped: load from another process's point of view.
 * @param {number} port
 */
export function keepRequesting (port) {
  const state = { going: true }
  let answered = 0
  const done = (async () => {
    while (state.going) {
      try {
        await (await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(10_000) })).text()
        answered++
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
  })()
  return {
    answered: () => answered,
    async stop () {
      state.going = false
      await done
    }
  }
}
