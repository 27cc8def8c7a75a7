import { parentPort, workerData } from 'node:worker_threads'
import { DynoError } from '../errors.js'
import { engineConfig } from './config.js'
import { LoadEngine, prepareEngine } from './engine.js'
import { loadRequestsFile } from './requests-file.js'

/**
 * One worker thread of a load: runs an engine with its share of the work,
 * reports each second, and sends back what it measured. A DynoError is the
 * user's mistake or the target's failure; anything else it throws is a bug
 * in dyno, and says so.
 */
/**
 * What a load worker tells the thread that started it; that thread sends it
 * 'stop' alone.
 * @typedef {{ type: 'tick', tick: import('./engine.js').EngineTick }
 *   | { type: 'result', raw: object }
 *   | { type: 'error', code: string, message: string, exitCode: 1 | 2 | 3 | 70 }
 *   | { type: 'crash', message: string }} WorkerMessage
 */

const { options, index, parts } = workerData
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)
/** @param {WorkerMessage} message @param {ArrayBuffer[]} [transfer] */
const tell = (message, transfer) => port.postMessage(message, transfer)
try {
  options.url = new URL(options.url)
  const requests = options.requestsFile ? await loadRequestsFile(options.requestsFile) : options.requests
  await prepareEngine(options.target)
  const engine = new LoadEngine({
    ...engineConfig(options, requests, index, parts),
    onTick: (tick) => tell({ type: 'tick', tick })
  })
  port.on('message', (message) => { if (message === 'stop') engine.stop() })
  const raw = await engine.run()
  const { counts, total, min, max } = raw.latency
  tell({ type: 'result', raw: { ...raw, latency: { counts, total, min, max } } }, [counts.buffer])
} catch (err) {
  if (err instanceof DynoError) {
    tell({ type: 'error', code: err.code, message: err.message, exitCode: err.exitCode })
  } else {
    const e = /** @type {Error} */ (err)
    tell({ type: 'crash', message: e instanceof Error ? `${e.name}: ${e.message.split('\n')[0]}` : String(err) })
  }
}
port.close()
