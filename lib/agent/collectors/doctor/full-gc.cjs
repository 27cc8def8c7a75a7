'use strict'
/**
 * A full GC of the app's main thread, from the agent's worker, and its
 * memory right after: what the app still holds, without the garbage that
 * no full GC has reclaimed yet. dyno asks for one before the load and one
 * after it, while the app waits; never while the load runs.
 */

/**
 * @param {import('../../inspector-session.cjs').InspectorSession} session to the main thread
 * @param {() => number} now epoch ms
 * @returns {Promise<{ t: number, heapUsed: number, external: number }>}
 */
async function fullGc (session, now) {
  // The domain must be on for collectGarbage to answer; it costs nothing until a profile starts.
  await session.post('HeapProfiler.enable')
  await session.post('HeapProfiler.collectGarbage')
  const t = now()
  const { result } = await session.post('Runtime.evaluate', { expression: 'process.memoryUsage()', returnByValue: true, silent: true })
  const memory = result && result.value
  if (!memory || typeof memory.heapUsed !== 'number') throw new Error('the app\'s process.memoryUsage() gave no figures')
  return { t, heapUsed: memory.heapUsed, external: memory.external }
}

module.exports = { fullGc }
