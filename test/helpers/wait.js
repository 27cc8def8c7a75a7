/**
 * Waiting in the tests, always with a deadline: a test that waits for
 * something that never comes fails with a message saying what never
 * happened, instead of hanging until the runner gives up on the file.
 *
 * The deadlines are generous (a busy machine is slow, never wrong): they
 * bound a hang, they do not measure speed.
 */
import { once } from 'node:events'

/** How long a wait lasts unless the test says otherwise. */
export const WAIT_MS = 30_000

/** @param {number} ms */
const seconds = (ms) => `${Number((ms / 1000).toFixed(1))} s`

/** @param {number} ms */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Asks `condition` every `intervalMs` until it returns something truthy, and
 * returns that; fails once `timeoutMs` have passed.
 * @template T
 * @param {() => T | Promise<T>} condition
 * @param {{ what: string, timeoutMs?: number, intervalMs?: number }} options
 *   what: what the test waits for, as in "<what> did not happen within 30 s"
 * @returns {Promise<NonNullable<T>>}
 */
export async function waitFor (condition, { what, timeoutMs = WAIT_MS, intervalMs = 50 }) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await condition()
    if (value) return /** @type {NonNullable<T>} */ (value)
    if (Date.now() >= deadline) throw new Error(`${what} did not happen within ${seconds(timeoutMs)}`)
    await sleep(intervalMs)
  }
}

/**
 * `once(emitter, event)`, failing after `timeoutMs` when the event never comes.
 * @param {import('node:events').EventEmitter} emitter
 * @param {string} event
 * @param {{ what: string, timeoutMs?: number }} options
 * @returns {Promise<any[]>}
 */
export async function onceWithin (emitter, event, { what, timeoutMs = WAIT_MS }) {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  try {
    return await once(emitter, event, { signal: controller.signal })
  } catch (err) {
    if (controller.signal.aborted) throw new Error(`${what} did not happen within ${seconds(timeoutMs)} (no "${event}" event)`)
    throw err
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Reads a child's output stream until what it wrote so far matches
 * `pattern`; returns the match. Fails when the stream ends first, or when
 * `timeoutMs` pass, with the output so far.
 * @param {import('node:stream').Readable} stream
 * @param {RegExp} pattern
 * @param {{ what: string, timeoutMs?: number }} options
 * @returns {Promise<RegExpExecArray>}
 */
export function waitForOutput (stream, pattern, { what, timeoutMs = WAIT_MS }) {
  return new Promise((resolve, reject) => {
    let seen = ''
    const timer = setTimeout(() => finish(new Error(`${what} did not happen within ${seconds(timeoutMs)}; the output so far:\n${seen}`)), timeoutMs)
    /** @param {Error | null} error @param {RegExpExecArray} [match] */
    const finish = (error, match) => {
      clearTimeout(timer)
      stream.off('data', onData)
      stream.off('end', onEnd)
      stream.off('error', onError)
      if (error) reject(error)
      else resolve(/** @type {RegExpExecArray} */ (match))
    }
    /** @param {Buffer | string} chunk */
    const onData = (chunk) => {
      seen += chunk
      const match = pattern.exec(seen)
      if (match) finish(null, match)
    }
    const onEnd = () => finish(new Error(`${what} never happened: the output ended first:\n${seen}`))
    const onError = (/** @type {Error} */ err) => finish(err)
    stream.on('data', onData)
    stream.on('end', onEnd)
    stream.on('error', onError)
  })
}
