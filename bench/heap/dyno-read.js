// One measured analysis of a snapshot by dyno, in a process of its own:
// read, dominators and retained sizes, shortest paths (what memlab's
// getFullHeapFromFile computes). Prints { ms, maxRssBytes }.
import { computeDominators } from '../../lib/kinds/heap/snapshot/dominators.js'
import { readSnapshot } from '../../lib/kinds/heap/snapshot/read-snapshot.js'
import { shortestPaths } from '../../lib/kinds/heap/snapshot/shortest-paths.js'

const started = performance.now()
const snapshot = await readSnapshot(process.argv[2])
const dominators = computeDominators(snapshot)
const paths = shortestPaths(snapshot)
const ms = performance.now() - started
process.stdout.write(JSON.stringify({ ms, maxRssBytes: process.resourceUsage().maxRSS * 1024, nodes: snapshot.nodeCount, retainedRoot: dominators.retained[0], reached: paths.distance.length }) + '\n')
