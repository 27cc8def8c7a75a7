// A page built from three independent reads, awaited one after another:
// each starts only when the previous one is done, so a request takes the
// sum of the three waits (20 + 50 + 80 ms).
// PORT picks the port (3000 by default; 0 for any free one).
'use strict'
const http = require('node:http')
const { readUser, readOrders, readRecommendations } = require('./backend.cjs')

async function readPage (id) {
  const user = await readUser(id)
  const orders = await readOrders(id)
  const recommendations = await readRecommendations(id)
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
