// gc-pressure: every request builds a large report out of many small
// objects, a slice at a time as rows come in (a turn of the event loop each,
// as from a database cursor), keeps all of it until the answer is sent, then
// drops it. No turn takes long, but the garbage collector copies and frees
// it all, request after request.
// PORT picks the port (3000 by default; 0 for any free one).
import http from 'node:http'
import { setImmediate as nextTurn } from 'node:timers/promises'

async function buildReport (slices, rowsPerSlice) {
  const rows = []
  for (let s = 0; s < slices; s++) {
    for (let i = 0; i < rowsPerSlice; i++) rows.push({ slice: s, label: `row ${s}.${i}`, values: [s, i, s * i] })
    await nextTurn()
  }
  return rows
}

const server = http.createServer(async (req, res) => {
  const report = await buildReport(40, 500)
  let total = 0
  for (const row of report) total += row.values[2]
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify({ rows: report.length, total }))
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
