// An app that awaits in a loop, busy enough to fill one core: each request
// reads twenty items one after another, each item a promise that settles on
// the next turn of the event loop. Every request makes some sixty async
// operations, so any per-operation cost of a tracer shows in its req/s.
import http from 'node:http'

const readItem = (id) => new Promise((resolve) => setImmediate(resolve, { id }))

async function readItems () {
  const items = []
  for (let id = 0; id < 20; id++) items.push(await readItem(id))
  return items
}

const server = http.createServer(async (req, res) => {
  const items = await readItems()
  res.end(String(items.length))
})
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening on ${server.address().port}`)
})
