import { dynoError } from '../../errors.js'

/**
 * dyno's side of one WebSocket to a Node.js inspector: calls and their
 * answers, and the hang-up.
 */

/** How long the app may take to answer a call made while hanging up. */
const CLOSE_CALL_TIMEOUT_MS = 3000
/** Evaluated in the app: closes its inspector in a later turn of its loop. */
export const CLOSE_INSPECTOR = "setImmediate(() => setImmediate(() => process.getBuiltinModule('node:inspector').close())); 0"

/**
 * @typedef {object} InspectorSession
 * @property {(expression: string, timeoutMs: number) => Promise<unknown>} evaluate runs an expression on the main thread and resolves with its value
 * @property {(how: { closeInspector: boolean, timeoutMs: number }) => Promise<boolean>} hangUp ends the connection, and with
 *   closeInspector the app's inspector too; resolves with whether it ended in time (if not, dyno dropped it)
 */

/**
 * @param {import('ws').WebSocket} ws open
 * @param {number} pid the process, for errors
 * @returns {InspectorSession}
 */
export function inspectorSession (ws, pid) {
  let nextId = 1
  /** @type {Map<number, (message: any) => void>} */
  const waiting = new Map()
  ws.on('message', (data) => {
    const message = JSON.parse(String(data))
    waiting.get(message.id)?.(message)
    waiting.delete(message.id)
  })
  ws.on('error', () => {})
  const closed = new Promise((resolve) => ws.once('close', resolve))
  closed.then(() => { for (const answer of waiting.values()) answer({ error: { message: 'the inspector closed' } }) })

  /** @param {string} method @param {object} params @param {number} timeoutMs @returns {Promise<any>} */
  const call = (method, params, timeoutMs) => new Promise((resolve, reject) => {
    const id = nextId++
    const timer = setTimeout(() => {
      waiting.delete(id)
      reject(dynoError('DYNO_PID_NO_ANSWER', { pid, seconds: timeoutMs / 1000 }))
    }, timeoutMs)
    waiting.set(id, (message) => {
      clearTimeout(timer)
      if (message.error) reject(new Error(message.error.message))
      else resolve(message.result)
    })
    ws.send(JSON.stringify({ id, method, params }))
  })

  return {
    async evaluate (expression, timeoutMs) {
      const result = await call('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: false }, timeoutMs)
      if (result.exceptionDetails) throw new Error(result.exceptionDetails.exception?.description ?? result.exceptionDetails.text)
      return result.result.value
    },
    async hangUp ({ closeInspector, timeoutMs }) {
      if (closeInspector) {
        // Only one side may start the WebSocket's close. When both do at once, Node's inspector
        // writes two close frames and frees the connection once the first is written: the app
        // dies with SIGSEGV (WsHandler::OnCloseFrameWritten). So the app starts it, with
        // inspector.close() in a turn of its loop, and dyno only answers its close frame.
        // SIGUSR1 asks the loop to open the inspector too, and a held loop hears it late: the
        // close waits for a poll of the loop between two immediates, or that late ask reopens it.
        await call('Runtime.evaluate', { expression: CLOSE_INSPECTOR, returnByValue: true }, CLOSE_CALL_TIMEOUT_MS).catch(() => {})
      } else {
        ws.close()
      }
      // A timer of its own, cleared: one left pending would hold dyno's exit.
      let timer
      const ended = await Promise.race([closed.then(() => true), new Promise((resolve) => { timer = setTimeout(resolve, timeoutMs, false) })])
      clearTimeout(timer)
      // The app's loop did not turn in time: its close comes later and finds the connection gone.
      if (!ended) ws.terminate()
      return /** @type {boolean} */ (ended)
    }
  }
}
