'use strict'
/**
 * The source maps Node knows for the profiled scripts (TypeScript through
 * tsx, bundles run with --enable-source-maps), read on the profiled thread
 * through its inspector session when profiling ends. A script compiled in
 * memory (tsx) is not on disk as it ran, so its generated text comes along:
 * the analysis needs it to place function extents and lines.
 */

/** Maps larger than this are left to the analysis to find on disk, if it can. */
const MAX_MAP_CHARS = 8 * 1024 * 1024

/**
 * An expression that, evaluated on the profiled thread, returns the maps Node
 * holds for these script URLs as JSON: `[{ url, map }]`.
 * @param {string[]} urls
 */
function sourceMapsExpression (urls) {
  return `(() => {
    const module = process.getBuiltinModule && process.getBuiltinModule('node:module')
    if (!module || !module.findSourceMap) return '[]'
    const found = []
    for (const url of ${JSON.stringify(urls)}) {
      try {
        const map = module.findSourceMap(url) || module.findSourceMap(process.getBuiltinModule('node:url').fileURLToPath(url))
        if (map && map.payload) found.push({ url, map: map.payload })
      } catch {}
    }
    return JSON.stringify(found)
  })()`
}

/**
 * @typedef {{ url: string, map: { sources?: string[] }, generated: string | null }} ScriptMap
 * @typedef {[method: string, params?: object]} Call
 */

/**
 * The inspector calls that collect the maps, as a generator: the worker
 * drives it with a session that answers with promises, a worker thread of
 * the app with one that answers at once (at its exit, nothing async runs).
 * @param {Map<string, string>} scripts profiled script ids by URL
 * @returns {Generator<Call, ScriptMap[], any>}
 */
function * sourceMapCalls (scripts) {
  const urls = [...scripts.keys()].filter((url) => url.startsWith('file:'))
  if (urls.length === 0) return []
  const { result } = yield ['Runtime.evaluate', { expression: sourceMapsExpression(urls), returnByValue: true }]
  /** @type {{ url: string, map: { sources?: string[] } }[]} */
  const found = JSON.parse(result.value || '[]')
  /** @type {ScriptMap[]} */
  const maps = []
  let debuggerOn = false
  try {
    for (const { url, map } of found) {
      if (JSON.stringify(map).length > MAX_MAP_CHARS) continue
      let generated = null
      // A map whose source is the script itself: the script ran as compiled in memory.
      if ((map.sources || []).some((source) => source === url || url.endsWith(source))) {
        if (!debuggerOn) {
          yield ['Debugger.enable']
          debuggerOn = true
        }
        generated = (yield ['Debugger.getScriptSource', { scriptId: scripts.get(url) }]).scriptSource
      }
      maps.push({ url, map, generated })
    }
  } finally {
    if (debuggerOn) yield ['Debugger.disable']
  }
  return maps
}

/**
 * @param {{ post: (method: string, params?: object) => Promise<any> }} session
 * @param {Map<string, string>} scripts
 */
async function collectSourceMaps (session, scripts) {
  const calls = sourceMapCalls(scripts)
  let step = calls.next()
  while (!step.done) {
    try {
      step = calls.next(await session.post(...step.value))
    } catch (err) {
      step = calls.throw(err)
    }
  }
  return step.value
}

/**
 * @param {{ post: (method: string, params?: object) => any }} session one whose calls answer at once
 * @param {Map<string, string>} scripts
 */
function collectSourceMapsSync (session, scripts) {
  const calls = sourceMapCalls(scripts)
  let step = calls.next()
  while (!step.done) {
    try {
      step = calls.next(session.post(...step.value))
    } catch (err) {
      step = calls.throw(err)
    }
  }
  return step.value
}

module.exports = { collectSourceMaps, collectSourceMapsSync }
