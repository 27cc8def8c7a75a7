// Starts the hello server on a free port, loads it with dyno for 5 seconds
// and stops it: `npm run demo`.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const server = spawn(process.execPath, [fileURLToPath(new URL('./hello/server.js', import.meta.url))], {
  env: { ...process.env, PORT: '0' },
  stdio: ['ignore', 'pipe', 'inherit']
})
const url = await new Promise((resolve, reject) => {
  server.stdout.setEncoding('utf8').on('data', (line) => {
    const m = /listening on (\S+)/.exec(line)
    if (m) resolve(m[1])
  })
  server.once('exit', (code) => reject(new Error(`the example server exited with code ${code}`)))
})
const dyno = spawn(process.execPath, [fileURLToPath(new URL('../bin/dyno.js', import.meta.url)), 'load', '-c', '100', '-d', '5', url], { stdio: 'inherit' })
dyno.once('exit', (code) => {
  server.kill()
  process.exitCode = code ?? 1
})
