'use strict'
/**
 * Collectors by name: each is one file in ./collectors/, with a `main`
 * side (optional; runs on the app's main thread before its first line) and
 * a `worker` side (runs in the agent's worker thread and writes the data).
 *
 * @typedef {object} MainContext
 * @property {number} pid
 * @property {string} dir the run folder's raw/ folder
 * @property {any} options what dyno asked of this collector
 * @property {(message: unknown) => void} post to this collector's worker side
 *
 * @typedef {object} WorkerContext
 * @property {number} pid
 * @property {string} dir
 * @property {any} options
 * @property {(suffix: string, text: string) => boolean} write writes `<pid>.<collector>.<suffix>`; false once the folder is gone
 * @property {(suffix: string, text: string) => boolean} append appends to that file
 * @property {() => import('./inspector-session.cjs').InspectorSession} session the worker's inspector session to the main thread
 * @property {(message: object) => void} send to dyno, live (e.g. for a terminal view)
 * @property {(listener: (message: any) => void) => void} onMain messages from this collector's main side
 * @property {(handler: (command: any) => Promise<object>) => void} onCommand commands dyno sends this collector
 *   (see ChannelServer.ask); what the handler resolves with goes back to dyno as the reply
 *
 * @typedef {object} Collector
 * @property {(context: MainContext) => void} [main]
 * @property {(context: WorkerContext) => CollectorHandle} worker
 *
 * @typedef {object} CollectorHandle
 * @property {Promise<void>} [ready] the app's first line waits for it (a little while at most)
 * @property {(how: string) => Promise<void>} end writes the last data; called once
 */

/**
 * @param {string} name
 * @returns {Collector | null}
 */
function loadCollector (name) {
  // A name, not a path: the environment says which files are loaded.
  if (!/^[a-z][a-z-]*$/.test(name)) return null
  try {
    return require(`./collectors/${name}.cjs`)
  } catch {
    return null
  }
}

module.exports = { loadCollector }
