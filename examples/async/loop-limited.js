// The twenty reads of loop-serial.js, ten at a time (p-map style, with the
// small helper in map-limited.js): a request takes two reads' time (40 ms),
// and the backend never sees more than ten at once, however long the list.
// PORT picks the port (3000 by default; 0 for any free one).
import http from 'node:http'
import backend from './backend.cjs'
import { mapLimited } from './map-limited.js'

const IDS = Array.from({ length: 20 }, (_, i) => i + 1)

function readItems (ids) {
  return mapLimited(ids, (id) => backend.readItem(id), 10)
}

const server = http.createServer(async (req, res) => {
  const items = await readItems(IDS)
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify(items))
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
