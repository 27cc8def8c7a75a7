// The twenty reads of loop-serial.js started together and awaited with
// Promise.all: a request takes one read's time (20 ms). Fine while the list
// is short and the backend takes them all at once.
// PORT picks the port (3000 by default; 0 for any free one).
import http from 'node:http'
import backend from './backend.cjs'

const IDS = Array.from({ length: 20 }, (_, i) => i + 1)

function readItems (ids) {
  return Promise.all(ids.map((id) => backend.readItem(id)))
}

const server = http.createServer(async (req, res) => {
  const items = await readItems(IDS)
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify(items))
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
