// The smallest server worth measuring: "hello world" on every request.
// PORT picks the port (3000 by default; 0 for any free one).
import http from 'node:http'

const server = http.createServer((req, res) => {
  res.setHeader('content-type', 'text/plain')
  res.end('hello world')
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
