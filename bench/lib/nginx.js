import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Starts Debian's nginx with one worker answering "hello world", pinned to
 * `cpu`, on a free loopback port. Returns its URL and a stop function.
 * With `http2`, it speaks HTTP/2 with prior knowledge (h2c) there, allowing
 * 1,000 streams per connection and any number of requests on one.
 * @param {{ cpu: number, http2?: boolean }} options
 */
export async function startNginx ({ cpu, http2 = false }) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-bench-nginx-'))
  const port = await freePort()
  writeFileSync(join(dir, 'nginx.conf'), `
worker_processes 1;
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log crit;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 100000000;
  http2_max_concurrent_streams 1000;
  client_body_temp_path ${dir};
  proxy_temp_path ${dir};
  fastcgi_temp_path ${dir};
  uwsgi_temp_path ${dir};
  scgi_temp_path ${dir};
  server {
    listen 127.0.0.1:${port}${http2 ? ' http2' : ''};
    location / { default_type text/plain; return 200 "hello world"; }
  }
}
`)
  const child = spawn('taskset', ['-c', String(cpu), 'nginx', '-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'inherit' })
  await waitForPort(port)
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () => new Promise((resolve) => {
      child.once('exit', resolve)
      child.kill('SIGTERM')
    })
  }
}

export async function freePort () {
  const server = net.createServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  const port = /** @type {net.AddressInfo} */ (server.address()).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** @param {number} port */
export async function waitForPort (port, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    const ok = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1')
      socket.once('connect', () => { socket.destroy(); resolve(true) })
      socket.once('error', () => resolve(false))
    })
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`nothing listened on ${port} within ${timeoutMs} ms`)
}
