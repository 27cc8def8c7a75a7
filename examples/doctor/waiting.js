// io-wait: every request waits on three lookups one after the other, each a
// timer standing in for a slow database or service. The process is idle
// while requests take 60 ms or more.
// PORT picks the port (3000 by default; 0 for any free one).
import http from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'

async function lookup (what) {
  await sleep(20)
  return `${what} ok`
}

const server = http.createServer(async (req, res) => {
  const user = await lookup('user')
  const orders = await lookup('orders')
  const prices = await lookup('prices')
  res.setHeader('content-type', 'text/plain')
  res.end(`${user}, ${orders}, ${prices}\n`)
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
