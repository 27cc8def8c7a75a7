// A TypeScript server, run without a build step:
//   node --import tsx examples/typescript/src/server.ts            (tsx)
//   node examples/typescript/src/server.ts                         (Node 23.6+: types stripped)
//   node --experimental-strip-types examples/typescript/src/server.ts   (Node 22)
// PORT picks the port (3000 by default; 0 for any free one).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { usersPage } from './routes/users.ts'

const server = http.createServer((req: http.IncomingMessage, res: http.ServerResponse) => {
  res.setHeader('content-type', 'application/json')
  res.end(usersPage(2000))
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
})
