// The same page as chain-serial.cjs, with the three reads started together
// and awaited with Promise.all: same result, and a request takes the longest
// wait (80 ms) instead of the sum.
// PORT picks the port (3000 by default; 0 for any free one).
'use strict'
const http = require('node:http')
const { readUser, readOrders, readRecommendations } = require('./backend.cjs')

async function readPage (id) {
  const [user, orders, recommendations] = await Promise.all([readUser(id), readOrders(id), readRecommendations(id)])
  return { user, orders, recommendations }
}

const server = http.createServer(async (req, res) => {
  const page = await readPage(7)
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify(page))
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
