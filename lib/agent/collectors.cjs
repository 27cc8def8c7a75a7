'use strict'
/**
 * Collectors by name: each is one file in ./collectors/, with a `main`
 * side (optional; runs on the app's main thread before its first line), a
 * `worker` side (runs in the agent's worker thread and writes the data),
 * and a `thread` side (optional; runs inside each worker thread of the app).
 *
 * @typedef {object} MainContext
 * @property {number} pid
 * @property {string} dir the run folder's raw/ folder
 * @property {any} options what dyno asked of this collector
 * @property {(message: unknown) => void} post to this collector's worker side
 * @property {import('./installed.cjs').Installed} installed timers, listeners, subscribers, observers and
 *   globals go through it, so that an attached agent can take them out again
 * @property {boolean} attached brought into a running process (attach.cjs): its first line is long past
 *
 * @typedef {object} WorkerContext
 * @property {number} pid
 * @property {string} dir
 * @property {any} options
 * @property {boolean} attached brought into a running process (attach.cjs)
 * @property {(suffix: string, text: string) => boolean} write writes `<pid>.<collector>.<suffix>`; false once the folder is gone
 * @property {(suffix: string, text: string) => boolean} append appends to that file
 * @property {() => import('./inspector-session.cjs').InspectorSession} session the worker's inspector session to the main thread
 * @property {(message: object) => void} send to dyno, live (e.g. for a terminal view)
 * @property {(listener: (message: any) => void) => void} onMain messages from this collector's main side
 * @property {(handler: (command: any) => Promise<object>) => void} onCommand commands dyno sends this collector
 *   (see ChannelServer.ask); what the handler resolves with goes back to dyno as the reply
 *
 * @typedef {object} ThreadContext in a worker thread of the app, which has no agent thread
 * @property {number} pid
 * @property {number} threadId
 * @property {string} dir
 * @property {any} options
 * @property {(suffix: string, text: string) => boolean} write writes `<pid>-<threadId>.<collector>.<suffix>`
 * @property {() => import('./inspector-session.cjs').SyncSession} session an inspector session on the thread itself, whose calls answer at once
 *
 * @typedef {object} ThreadHandle
 * @property {(how: string) => void} end writes the last data, synchronously (it may run at the thread's exit)
 *
 * @typedef {object} Collector
 * @property {(context: MainContext) => void} [main]
 * @property {(context: WorkerContext) => CollectorHandle} worker
 * @property {(context: ThreadContext) => ThreadHandle} [thread] what it observes of a worker thread, if anything
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
