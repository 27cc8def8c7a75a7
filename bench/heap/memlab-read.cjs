'use strict'
// One measured analysis of a snapshot by memlab, in a process of its own:
// getFullHeapFromFile (parse, dominators, retained sizes, distances).
// `node memlab-read.cjs <snapshot> <folder holding @memlab/heap-analysis>`
const path = require('node:path')
const { getFullHeapFromFile } = require(path.join(process.argv[3], '@memlab/heap-analysis'))

const started = performance.now()
getFullHeapFromFile(process.argv[2]).then((heap) => {
  const ms = performance.now() - started
  process.stdout.write(JSON.stringify({ ms, maxRssBytes: process.resourceUsage().maxRSS * 1024, nodes: heap.nodes.length }) + '\n')
})
