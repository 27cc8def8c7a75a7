'use strict'
// What any doctor that samples every 10 ms pays on the app's main thread,
// whatever it does with the figures: a 10 ms timer that reads the clock and
// the loop's idle time, a subscriber on the two HTTP server channels, and a
// GC observer. Preloaded (`node -r`) by bench/doctor.js as its floor.
const { performance, PerformanceObserver } = require('node:perf_hooks')
const diagnostics = require('node:diagnostics_channel')

const figures = new Float64Array(6)
diagnostics.subscribe('http.server.request.start', () => { figures[0]++ })
diagnostics.subscribe('http.server.response.finish', () => { figures[1]++ })
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) figures[2] += entry.duration
}).observe({ entryTypes: ['gc'] })
let last = performance.now()
setInterval(() => {
  const t = performance.now()
  figures[3] = t - last
  figures[4] = performance.nodeTiming.idleTime
  last = t
}, 10).unref()
