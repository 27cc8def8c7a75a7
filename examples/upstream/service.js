// The service the dashboard calls: a user, their orders and recommendations,
// each answered after 15 ms, as a service across the network would.
// PORT picks the port (4000 by default; 0 for any free one).
import http from 'node:http'
import { ANSWER_MS } from './upstream.js'

const server = http.createServer((req, res) => {
  setTimeout(() => {
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ path: req.url, at: Date.now() }))
  }, ANSWER_MS)
})

server.listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => {
  console.log(`upstream listening on http://127.0.0.1:${server.address().port}/`)
})
