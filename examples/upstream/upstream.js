// Where the dashboard's service is: UPSTREAM_URL when it is set, else
// service.js started here as a child process once the app listens (so that
// the app's port is the first one its processes open), ended with the app.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'

/** How long the service takes to answer. */
export const ANSWER_MS = 15

/** @returns {Promise<string>} the service's URL, without a trailing slash */
export async function startUpstream () {
  if (process.env.UPSTREAM_URL) return process.env.UPSTREAM_URL.replace(/\/$/, '')
  const child = spawn(process.execPath, [fileURLToPath(new URL('./service.js', import.meta.url))], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit']
  })
  process.once('exit', () => child.kill())
  let output = ''
  for await (const chunk of child.stdout) {
    output += chunk
    const url = /listening on (http:\/\/\S+?)\/?\s/.exec(output)?.[1]
    if (url) {
      child.stdout.resume()
      return url
    }
  }
  await once(child, 'exit')
  throw new Error('the upstream service ended before it listened')
}
