// memory-growth: a "recently seen" store meant to hold one entry per
// visitor keys each entry by a request counter instead, so it keeps one
// entry per request, forever.
// PORT picks the port (3000 by default; 0 for any free one).
import http from 'node:http'

const seen = new Map()
let requests = 0

const server = http.createServer((req, res) => {
  requests++
  seen.set(`${req.socket.remoteAddress}#${requests}`, { url: req.url, agent: req.headers['user-agent'] ?? '', at: new Date().toISOString() })
  res.setHeader('content-type', 'text/plain')
  res.end(`visitors seen: ${seen.size}\n`)
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
