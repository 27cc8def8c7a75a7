'use strict'
/**
 * Which tier (interpreted, Sparkplug baseline, Maglev, Turbofan) runs each
 * profiled function when profiling ends, as V8's %GetOptimizationStatus says.
 *
 * The CPU profile names functions by location only, so the function objects
 * are found through the inspector: every function on the heap
 * (Runtime.queryObjects), narrowed by name, then matched by location. That
 * walks the heap once, so it runs once, when profiling ends.
 *
 * The status reader (lib/v8/optimization-status.js) is an ES module, imported
 * on the main thread when the agent starts; the lookups run from the agent's
 * worker, through its inspector session. An ES module stays in the
 * process's module cache: an attached agent cannot take that out again.
 */
const path = require('node:path')
const { pathToFileURL } = require('node:url')

const STATUS = Symbol.for('dyno.optimizationStatus')

const RANK = ['unknown', 'lazy', 'interpreted', 'baseline', 'maglev', 'turbofan']

/** The most functions looked up by location. */
const MAX_CANDIDATES = 5000

/** @param {import('./installed.cjs').Installed} installed */
function prepareTierReader (installed) {
  import(pathToFileURL(path.join(__dirname, '..', 'v8', 'optimization-status.js')).href)
    .then((m) => {
      // An attached agent taken out before the import ended has nothing to install.
      if (installed.undone) return
      const reader = m.createOptimizationStatusReader()
      installed.setGlobal(STATUS, (/** @type {Function} */ fn) => reader(fn).tier)
    })
    .catch(() => {})
}

/**
 * @typedef {{ functionName: string, scriptId: string, url: string, lineNumber: number, columnNumber: number }} CallFrame
 */

/**
 * Runs in the agent's worker; the functions and the reader live on the main thread.
 * @param {import('./profiler.cjs').Profiler} profiler
 * @param {CallFrame[]} frames the frames to ask about
 * @returns {Promise<{ frame: CallFrame, tier: string }[] | null>} null when the reader is not available
 */
async function collectTiers (profiler, frames) {
  if (frames.length === 0) return null
  const { result: ready } = await profiler.post('Runtime.evaluate', { expression: 'typeof globalThis[Symbol.for(\'dyno.optimizationStatus\')] === \'function\'', returnByValue: true })
  if (ready.value !== true) return null
  const names = [...new Set(frames.map((f) => shortName(f.functionName)))]
  const { result: prototype } = await profiler.post('Runtime.evaluate', { expression: 'Function.prototype' })
  const { objects } = await profiler.post('Runtime.queryObjects', { prototypeObjectId: prototype.objectId })
  try {
    // Indexes of the functions whose name a profiled frame has.
    const { result: picked } = await profiler.post('Runtime.callFunctionOn', {
      objectId: objects.objectId,
      functionDeclaration: `function (names, max) {
        const wanted = new Set(names)
        const out = []
        for (let i = 0; i < this.length && out.length < max; i++) if (wanted.has(this[i].name)) out.push(i)
        return out
      }`,
      arguments: [{ value: names }, { value: MAX_CANDIDATES }],
      returnByValue: true
    })
    /** @type {Map<string, CallFrame>} */
    const byLocation = new Map(frames.map((f) => [`${f.scriptId}:${f.lineNumber}:${f.columnNumber}`, f]))
    /** Closures of one function share its location: keep the highest tier any of them reached. */
    /** @type {Map<CallFrame, string>} */
    const best = new Map()
    for (const index of picked.value) {
      const { result: fn } = await profiler.post('Runtime.callFunctionOn', {
        objectId: objects.objectId,
        functionDeclaration: 'function (i) { return this[i] }',
        arguments: [{ value: index }]
      })
      const { internalProperties = [] } = await profiler.post('Runtime.getProperties', { objectId: fn.objectId, ownProperties: true })
      const location = internalProperties.find((/** @type {{ name: string }} */ p) => p.name === '[[FunctionLocation]]')?.value?.value
      const frame = location && byLocation.get(`${location.scriptId}:${location.lineNumber}:${location.columnNumber}`)
      if (frame) {
        const { result } = await profiler.post('Runtime.callFunctionOn', {
          objectId: fn.objectId,
          functionDeclaration: 'function () { return globalThis[Symbol.for(\'dyno.optimizationStatus\')](this) }',
          returnByValue: true
        })
        const previous = best.get(frame)
        if (previous === undefined || RANK.indexOf(result.value) > RANK.indexOf(previous)) best.set(frame, result.value)
      }
      await profiler.post('Runtime.releaseObject', { objectId: fn.objectId })
    }
    return [...best].map(([frame, tier]) => ({ frame, tier }))
  } finally {
    await profiler.post('Runtime.releaseObject', { objectId: objects.objectId })
  }
}

/**
 * The name a function object carries, from the name the profiler shows:
 * `Class.method` and `obj.method` are `method`.
 * @param {string} name
 */
function shortName (name) {
  const at = name.lastIndexOf('.')
  return at === -1 ? name : name.slice(at + 1)
}

module.exports = { prepareTierReader, collectTiers }
