import { parentPort, workerData } from 'node:worker_threads'
import { engineConfig } from './config.js'
import { LoadEngine } from './engine.js'
import { loadRequestsFile } from './requests-file.js'

/**
 * One worker thread of a load: runs an engine with its share of the work,
 * reports each second, and sends back what it measured.
 */
const { options, index, parts } = workerData
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)
options.url = new URL(options.url)
const requests = options.requestsFile ? await loadRequestsFile(options.requestsFile) : options.requests
const engine = new LoadEngine({
  ...engineConfig(options, requests, index, parts),
  onTick: (tick) => port.postMessage({ type: 'tick', tick })
})
port.on('message', (message) => { if (message === 'stop') engine.stop() })
try {
  const raw = await engine.run()
  const counts = raw.latency.counts
  port.postMessage({ type: 'result', raw: { ...raw, latency: { counts, total: raw.latency.total, max: raw.latency.max } } }, [counts.buffer])
} catch (err) {
  const e = /** @type {import('../errors.js').DynoError} */ (err)
  port.postMessage({ type: 'error', code: e.code, message: e.message, exitCode: e.exitCode })
}
port.close()
