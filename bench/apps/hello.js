// The server the profilers are measured on: it answers "hello world" as
// fast as one core allows, so any cost a profiler adds shows in its req/s.
import http from 'node:http'

const server = http.createServer((req, res) => res.end('hello world'))
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening on ${server.address().port}`)
})
