// bench/apps/hello.js in TypeScript: bench/flame.js --source-maps compiles it
// with tsc --sourceMap, so that dyno flame maps every frame through the map.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

const server = http.createServer((req: http.IncomingMessage, res: http.ServerResponse): void => {
  res.end('hello world')
})
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening on ${(server.address() as AddressInfo).port}`)
})
