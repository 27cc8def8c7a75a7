// A total over 500 items whose price comes from a function declared async
// that never awaits: each call makes a promise and settles it, and each await
// of it waits a turn. dyno async names it unneeded-async; dropping async (and
// the await) is the fix, as examples/micro/unneeded-async.js measures.
// PORT picks the port (3000 by default; 0 for any free one).
import http from 'node:http'

export const ITEMS = 500
const items = Array.from({ length: ITEMS }, (_, i) => ({ cost: i }))

async function price (item) {
  return item.cost * 1.2
}

async function total () {
  let sum = 0
  for (const item of items) sum += await price(item)
  return sum
}

const server = http.createServer(async (req, res) => {
  res.end(String(await total()))
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
