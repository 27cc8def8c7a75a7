// healthy: answers "hello world" as fast as it can. Under a closed-model
// load it uses a whole core, and that is no problem: its event loop turns
// within a millisecond or two, so no request waits behind another.
// PORT picks the port (3000 by default; 0 for any free one).
import http from 'node:http'

const server = http.createServer((req, res) => {
  res.setHeader('content-type', 'text/plain')
  res.end('hello world')
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
