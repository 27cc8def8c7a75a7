// Twenty items read one by one, with await inside the loop: each read
// starts when the previous one is done, so a request takes 20 × 20 ms.
// PORT picks the port (3000 by default; 0 for any free one).
import http from 'node:http'
import backend from './backend.cjs'

const IDS = Array.from({ length: 20 }, (_, i) => i + 1)

async function readItems (ids) {
  const items = []
  for (const id of ids) {
    items.push(await backend.readItem(id))
  }
  return items
}

const server = http.createServer(async (req, res) => {
  const items = await readItems(IDS)
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify(items))
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
