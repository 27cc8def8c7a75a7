// Preloaded (-r) into a bench app: a 1 ms timer that appends every turn of
// the event loop longer than 3 ms to GAPS_FILE, as "<epoch ms at its end> <ms>",
// to see what holds the app's loop from outside it.
const fs = require('node:fs')
const file = process.env.GAPS_FILE
let last = performance.now()
setInterval(() => {
  const now = performance.now()
  const gap = now - last
  last = now
  if (gap > 3 && file) fs.appendFileSync(file, `${performance.timeOrigin + now} ${gap.toFixed(2)}\n`)
}, 1).unref()
