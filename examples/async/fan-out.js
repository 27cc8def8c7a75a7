// Forty queries started at once against a database with four connections:
// they wait in line for a connection, each a little longer than the one
// before, and every other request's queries wait behind them.
// PORT picks the port (3000 by default; 0 for any free one).
import http from 'node:http'
import backend from './backend.cjs'

const pool = backend.createPool(4)
const IDS = Array.from({ length: 40 }, (_, i) => i + 1)

const server = http.createServer(async (req, res) => {
  const rows = await Promise.all(IDS.map((id) => pool.query(id)))
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify(rows))
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
