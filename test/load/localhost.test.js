import assert from 'node:assert/strict'
import http from 'node:http'
import { test } from 'node:test'
import { load } from '../../lib/index.js'
import { runDyno } from '../helpers/cli.js'

/**
 * An HTTP server on one loopback address only.
 * @param {string} host
 */
async function serverOn (host) {
  let requests = 0
  const server = http.createServer((req, res) => { requests++; res.end('ok') })
  await new Promise((resolve) => server.listen(0, host, () => resolve(undefined)))
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port
  return {
    port,
    requests: () => requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve(undefined)) })
  }
}

test('localhost reaches a server that listens on ::1 only, or on 127.0.0.1 only', async (t) => {
  for (const host of ['::1', '127.0.0.1']) {
    const target = await serverOn(host)
    t.after(target.close)
    const result = await load({ url: `http://localhost:${target.port}/`, amount: 20, connections: 2 })
    assert.equal(result.requests.completed, 20, `server on ${host}`)
    assert.equal(target.requests(), 20)
  }
})

test('refused on one loopback family: the line says the other one answers', async (t) => {
  const v6 = await serverOn('::1')
  t.after(v6.close)
  const run = await runDyno(['load', '-a', '5', `http://127.0.0.1:${v6.port}/`])
  assert.equal(run.code, 1)
  assert.equal(run.stderr, `dyno load: nothing is listening on 127.0.0.1:${v6.port}, but [::1]:${v6.port} accepts connections: the server listens on IPv6 only; put [::1] or localhost in the URL\n`)
  const v4 = await serverOn('127.0.0.1')
  t.after(v4.close)
  const back = await runDyno(['load', '-a', '5', `http://[::1]:${v4.port}/`])
  assert.equal(back.code, 1)
  assert.equal(back.stderr, `dyno load: nothing is listening on [::1]:${v4.port}, but 127.0.0.1:${v4.port} accepts connections: the server listens on IPv4 only; put 127.0.0.1 or localhost in the URL\n`)
})
