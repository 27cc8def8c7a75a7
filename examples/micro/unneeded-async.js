// The cost dyno async names unneeded-async, on its own: a price computed by
// a function declared async that never awaits, summed over 100 items with
// an await per call, against the same function without async.
//   npx dyno micro examples/micro/unneeded-async.js
import { bench, run } from 'dyno/micro'

const items = Array.from({ length: 100 }, (_, i) => ({ cost: i }))

async function priceAsync (item) {
  return item.cost * 1.2
}

function price (item) {
  return item.cost * 1.2
}

bench('async, awaited', async () => {
  let total = 0
  for (const item of items) total += await priceAsync(item)
  return total
})

bench('plain', () => {
  let total = 0
  for (const item of items) total += price(item)
  return total
})

await run()
