'use strict'
/**
 * The agent's worker thread: it runs the collectors' worker sides, talks to
 * dyno, and ends every collector once, when dyno asks, the channel drops or
 * the process exits. Working from here, it is heard even while the app's
 * event loop is blocked.
 *
 * Brought into a running process (attach.cjs), it then takes the agent out
 * again: it ends the collectors ('detached'; 'channel-closed' when dyno went
 * away), tells dyno 'stopped', closes its line and tells the main thread,
 * which undoes what the agent installed there and ends this thread.
 *
 * Files, in `<runDir>/raw/`: `<pid>.end.json` (how observing ended) and what
 * each collector writes as `<pid>.<collector>.*`.
 */
const { BroadcastChannel, parentPort, workerData } = require('node:worker_threads')
const { connectChannel } = require('./channel.cjs')
const { loadCollector } = require('./collectors.cjs')
const { InspectorSession } = require('./inspector-session.cjs')
const { STARTED, ENDED } = require('./main-thread.cjs')
const { threadChannelName } = require('./thread.cjs')
const { unitWriter } = require('./unit-files.cjs')

/** How long the app's worker threads may take to write when observing ends. */
const THREAD_STOP_MS = 3000

const { dir, pid, flags, socketPath } = workerData
const attached = workerData.attached === true
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)

const write = unitWriter(dir, String(pid))

/** @type {InspectorSession | null} */
let session = null
/** @type {Map<string, (message: unknown) => void>} */
const fromMain = new Map()
/** @type {Map<string, (command: any) => Promise<object>>} */
const commandHandlers = new Map()
let ended = false
let detaching = false
/** @type {{ name: string, message: string } | null} */
let uncaught = null

/** @type {ReturnType<typeof connectChannel> | null} */
const channel = socketPath
  ? connectChannel(socketPath, {
    onStop: () => {
      if (attached) detach('detached')
      else end('stopped', null).then(() => channel?.send({ type: 'stopped', pid }))
    },
    // An attached agent never stays behind its dyno, nor without one.
    onClose: (connected) => {
      if (attached) detach('channel-closed')
      else if (connected) end('channel-closed', null)
    },
    onCommand: (message) => answer(message)
  })
  : null

/** @type {{ name: string, handle: import('./collectors.cjs').CollectorHandle }[]} */
const running = []
for (const [name, options] of Object.entries(workerData.collectors)) {
  const collector = loadCollector(name)
  if (!collector) continue
  try {
    const handle = collector.worker({
      pid,
      dir,
      options,
      attached,
      write: (suffix, text) => write(`${name}.${suffix}`, text),
      append: (suffix, text) => write(`${name}.${suffix}`, text, true),
      session: () => (session ??= new InspectorSession()),
      send: (message) => channel?.send({ ...message, type: 'data', collector: name, pid }),
      onMain: (listener) => { fromMain.set(name, listener) },
      onCommand: (handler) => { commandHandlers.set(name, handler) }
    })
    running.push({ name, handle })
  } catch {}
}

// The app's worker threads observe themselves (thread.cjs); they hear the
// stop from here.
const threads = new Set()
/** @type {(() => void) | null} */
let threadsStopped = null
const threadChannel = new BroadcastChannel(threadChannelName(pid))
threadChannel.unref()
threadChannel.onmessage = (/** @type {{ data: any }} */ event) => {
  const message = /** @type {import('./protocol.cjs').ThreadMessage} */ (event.data)
  if (message.type === 'thread-hello') threads.add(message.threadId)
  else if (message.type === 'thread-stopped') {
    threads.delete(message.threadId)
    if (threads.size === 0) threadsStopped?.()
  }
}

function stopThreads () {
  if (threads.size === 0) return Promise.resolve()
  threadChannel.postMessage({ type: 'stop' })
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, THREAD_STOP_MS)
    threadsStopped = () => { clearTimeout(timer); resolve(undefined) }
  })
}

/**
 * Ends every collector and writes how observing ended. Once only.
 * @param {string} how 'stopped' (dyno asked), 'exit', 'channel-closed'
 * @param {number | null} code
 */
async function end (how, code) {
  if (ended) return
  ended = true
  await stopThreads()
  await Promise.all(running.map(({ handle }) => handle.end(how).catch(() => {})))
  write('end.json', JSON.stringify({ how, code, uncaught, at: new Date().toISOString() }))
  // A session still connected at exit makes Node print that it waits for a debugger.
  session?.disconnect()
  // Nothing is left to write: a process exiting from now on need not wait.
  Atomics.store(flags, ENDED, 1)
}

/**
 * An attached agent's end: ends the collectors, tells dyno, closes the line
 * and tells the main thread, which undoes the rest and ends this thread
 * (attach.cjs). Once.
 *
 * The main thread ends it, not this thread itself: a thread that ends while
 * the main thread still takes down its inspector session aborts the process
 * (seen on Node 22: the main thread posts to the ending thread's inspector).
 * The main thread runs the session's teardown, which V8 runs as an
 * interrupt, before the JavaScript that handles this thread's message.
 * @param {'detached' | 'channel-closed'} how
 */
async function detach (how) {
  if (detaching) return
  detaching = true
  try {
    await end(how, null)
    channel?.send({ type: 'stopped', pid })
    await channel?.close()
    threadChannel.close()
  } finally {
    port.postMessage({ type: 'detached' })
  }
}

/**
 * Runs a command dyno sent to one collector and sends back its reply, or
 * the error, tagged with the command's id.
 * @param {{ collector: string, id: number, command: unknown }} message
 */
async function answer (message) {
  const handler = commandHandlers.get(message.collector)
  let reply
  try {
    reply = handler && !ended ? await handler(message.command) : { error: ended ? 'observing has ended' : `no collector "${message.collector}" here` }
  } catch (err) {
    reply = { error: String(/** @type {Error} */ (err)?.message ?? err) }
  }
  channel?.send({ ...reply, type: 'data', collector: message.collector, pid, reply: message.id })
}

const greeted = Promise.allSettled(running.map(({ handle }) => handle.ready))
  .then(() => channel?.send({ type: 'hello', pid, ppid: process.ppid }))
  .finally(() => Atomics.store(flags, STARTED, 1))

port.on('message', (/** @type {import('./protocol.cjs').MainMessage} */ message) => {
  if (message.type === 'collector') fromMain.get(message.collector)?.(message.message)
  // After the hello, which names the process: an attached agent hears of the app's servers before.
  else if (message.type === 'listening') greeted.then(() => channel?.send({ type: 'listening', pid, ...message.address }))
  else if (message.type === 'uncaught') uncaught = message.uncaught
  else if (message.type === 'exit') end('exit', message.code).finally(() => Atomics.store(flags, ENDED, 1))
  else if (message.type === 'detach' && attached) detach('detached')
})
