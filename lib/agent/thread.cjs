'use strict'
/**
 * The agent inside a worker thread of the app (NODE_OPTIONS' --require runs
 * in every thread). A worker thread has no agent thread of its own: its
 * collectors run in it, through an inspector session on the same thread,
 * whose calls answer at once. They write as `<pid>-<threadId>.*`, so each
 * thread is observed as a unit of its own beside its process.
 *
 * It hears dyno's stop through a BroadcastChannel from the process's agent
 * worker, and ends at the thread's exit, synchronously, as threads end.
 */
const path = require('node:path')
const inspector = require('node:inspector')
const { BroadcastChannel, threadId } = require('node:worker_threads')
const { loadCollector } = require('./collectors.cjs')
const { processFacts, unitWriter } = require('./unit-files.cjs')

/**
 * The channel between a process's agent worker and its threads' agents.
 * @param {number} pid
 */
function threadChannelName (pid) {
  return `dyno.agent.${pid}`
}

/**
 * @param {{ runDir: string, collectors: Record<string, object> }} options
 */
function startThreadAgent (options) {
  const dir = path.join(options.runDir, 'raw')
  const pid = process.pid
  const write = unitWriter(dir, `${pid}-${threadId}`)
  write('process.json', processFacts({ threadId }))

  /** @type {import('./inspector-session.cjs').SyncSession | null} */
  let session = null
  const openSession = () => {
    if (session) return session
    const s = new inspector.Session()
    s.connect()
    session = {
      post (method, params) {
        let answer
        let failure
        s.post(method, params, (err, result) => { failure = err; answer = result })
        if (failure) throw failure
        return answer
      },
      disconnect () {
        try {
          s.disconnect()
        } catch {}
      }
    }
    return session
  }

  /** @type {import('./collectors.cjs').ThreadHandle[]} */
  const handles = []
  for (const [name, collectorOptions] of Object.entries(options.collectors)) {
    const collector = loadCollector(name)
    if (!collector || !collector.thread) continue
    try {
      handles.push(collector.thread({
        pid,
        threadId,
        dir,
        options: collectorOptions,
        write: (suffix, text) => write(`${name}.${suffix}`, text),
        session: openSession
      }))
    } catch {}
  }
  if (handles.length === 0) return

  let ended = false
  /** @param {string} how @param {number | null} code */
  const end = (how, code) => {
    if (ended) return
    ended = true
    for (const handle of handles) {
      try {
        handle.end(how)
      } catch {}
    }
    write('end.json', JSON.stringify({ how, code, uncaught: null, at: new Date().toISOString() }))
    session?.disconnect()
  }
  const channel = new BroadcastChannel(threadChannelName(pid))
  channel.unref()
  channel.onmessage = (/** @type {{ data: any }} */ event) => {
    if (/** @type {import('./protocol.cjs').ThreadMessage} */ (event.data).type !== 'stop') return
    end('stopped', null)
    channel.postMessage({ type: 'thread-stopped', threadId })
  }
  channel.postMessage({ type: 'thread-hello', threadId })
  process.on('exit', (code) => {
    end('exit', code)
    channel.postMessage({ type: 'thread-stopped', threadId })
  })
}

module.exports = { startThreadAgent, threadChannelName }
