// event-loop-blocked: every request ranks a catalogue synchronously, so the
// event loop is held for tens of milliseconds each time and requests queue.
// PORT picks the port (3000 by default; 0 for any free one).
import http from 'node:http'

const catalogue = Array.from({ length: 2000 }, (_, i) => ({ id: i, title: `product ${i}`, price: (i * 7919) % 1000 }))

// Scores every product against every other one: quadratic, on purpose.
function rankBySimilarity (items) {
  const scores = new Float64Array(items.length)
  for (let i = 0; i < items.length; i++) {
    for (let j = 0; j < items.length; j++) {
      scores[i] += 1 / (1 + Math.abs(items[i].price - items[j].price))
    }
  }
  return items.map((item, i) => ({ id: item.id, score: scores[i] })).sort((a, b) => b.score - a.score)
}

const server = http.createServer((req, res) => {
  const ranked = rankBySimilarity(catalogue)
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify(ranked.slice(0, 3)))
})

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`)
})
