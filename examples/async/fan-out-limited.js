// The forty queries of fan-out.js, as many at a time as the pool has
// connections (with the helper in map-limited.js): no query waits in line.
// PORT picks the port (3000 by default; 0 for any free one).
import http from 'node:http'
import backend from './backend.cjs'
import { mapLimited } from './map-limited.js'

const pool = backend.createPool(4)
const IDS = Array.from({ length: 40 }, (_, i) => i + 1)

const server = http.createServer(async (req, res) => {
  const rows = await mapLimited(IDS, (id) => pool.query(id), pool.size)
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify(rows))
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
