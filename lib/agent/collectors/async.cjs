'use strict'
/**
 * The async collector (`dyno async`): per HTTP request, the async operations
 * the app created for it, traced on the main thread (see async-tracer.cjs)
 * and written by the worker as they come.
 *
 * File: `<pid>.async.jsonl`, one JSON object a line: `site` (where
 * operations were created), `request` (a traced request and its operations)
 * and `counts` (requests seen and traced so far; the last one holds).
 */
const { startTracer } = require('../async-tracer.cjs')

/** How often the main thread hands over what it traced: each hand-over wakes the worker, on the app's CPU. */
const FLUSH_MS = 250
/** How long the end waits for the main thread's last hand-over. */
const FINAL_WAIT_MS = 2000

/** @param {import('../collectors.cjs').MainContext} context */
function main (context) {
  // Raised by the worker when observing ends: the main thread's next flush is its last.
  const ending = new Int32Array(new SharedArrayBuffer(4))
  let ended = false
  let lastCounts = ''
  const { installed } = context
  const tracer = startTracer(context.options, (text, counts) => {
    const countsLine = JSON.stringify({ type: 'counts', ...counts }) + '\n'
    if (countsLine === lastCounts && !text && !ended) return
    lastCounts = countsLine
    context.post({ text: text + countsLine, final: ended })
  }, installed)
  context.post({ ending })
  installed.repeat(() => {
    if (ended) return
    ended = Atomics.load(ending, 0) === 1
    tracer.flush(ended)
  }, FLUSH_MS)
  installed.listen(process, 'exit', () => {
    if (ended) return
    ended = true
    tracer.flush(true)
  })
}

/** @param {import('../collectors.cjs').WorkerContext} context */
function worker (context) {
  /** @type {Int32Array | null} */
  let ending = null
  /** @type {() => void} */
  let onFinal = () => {}
  const final = new Promise((resolve) => { onFinal = () => resolve(undefined) })
  let writable = true
  context.onMain((message) => {
    if (message.ending) ending = message.ending
    if (message.text && writable) writable = context.append('jsonl', message.text)
    if (message.final) onFinal()
  })
  return {
    async end () {
      if (ending) Atomics.store(ending, 0, 1)
      /** @type {NodeJS.Timeout | undefined} */
      let timer
      await Promise.race([final, new Promise((resolve) => { timer = setTimeout(resolve, FINAL_WAIT_MS) })])
      clearTimeout(timer)
    }
  }
}

module.exports = { main, worker }
