import { parentPort, workerData } from 'node:worker_threads'
import { DynoError } from '../errors.js'
import { engineConfig } from './config.js'
import { LoadEngine } from './engine.js'
import { loadRequestsFile } from './requests-file.js'

/**
 * One worker thread of a load: runs an engine with its share of the work,
 * reports each second, and sends back what it measured. A DynoError is the
 * user's mistake or the target's failure; anything else it throws is a bug
 * in dyno, and says so.
 */
const { options, index, parts } = workerData
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)
try {
  options.url = new URL(options.url)
  const requests = options.requestsFile ? await loadRequestsFile(options.requestsFile) : options.requests
  const engine = new LoadEngine({
    ...engineConfig(options, requests, index, parts),
    onTick: (tick) => port.postMessage({ type: 'tick', tick })
  })
  port.on('message', (message) => { if (message === 'stop') engine.stop() })
  const raw = await engine.run()
  const { counts, total, min, max } = raw.latency
  port.postMessage({ type: 'result', raw: { ...raw, latency: { counts, total, min, max } } }, [counts.buffer])
} catch (err) {
  if (err instanceof DynoError) {
    port.postMessage({ type: 'error', code: err.code, message: err.message, exitCode: err.exitCode })
  } else {
    const e = /** @type {Error} */ (err)
    port.postMessage({ type: 'crash', message: e instanceof Error ? `${e.name}: ${e.message.split('\n')[0]}` : String(err) })
  }
}
port.close()
