'use strict'
/**
 * What the doctor collector reads on the app's main thread, each reader cheap
 * enough to run a hundred times a second next to a saturated server.
 */
const v8 = require('node:v8')
const { COUNTER, countGc } = require('./sample-row.cjs')

/** The most emitters whose listeners are followed. */
const MAX_WATCHED = 20

/** V8's heap spaces that hold anything: name → [size, used]. */
function heapSpaces () {
  /** @type {Record<string, [number, number]>} */
  const spaces = {}
  for (const space of v8.getHeapSpaceStatistics()) {
    if (space.space_size > 0) spaces[space.space_name.replace(/_space$/, '')] = [space.space_size, space.space_used_size]
  }
  return spaces
}

/** Handles and requests that keep the loop alive, counted by type. */
function activeResources () {
  /** @type {Record<string, number>} */
  const counts = {}
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] || 0) + 1
  return counts
}

/**
 * Counts GC pauses by kind into `counters` (see sample-row.cjs).
 * @param {Float64Array} counters
 * @param {import('../../installed.cjs').Installed} installed
 */
function watchGc (counters, installed) {
  installed.observe(['gc'], (list) => {
    for (const entry of list.getEntries()) {
      const detail = /** @type {{ detail?: { kind?: number } }} */ (/** @type {unknown} */ (entry)).detail
      countGc(counters, detail && detail.kind, entry.duration)
    }
  })
}

/**
 * Counts the requests the app's HTTP servers start and finish into
 * `counters`, from Node's diagnostics channels: nothing of the app's is wrapped.
 * @param {Float64Array} counters
 * @param {import('../../installed.cjs').Installed} installed
 */
function watchHttp (counters, installed) {
  installed.subscribe('http.server.request.start', () => { counters[COUNTER.httpStarted]++ })
  installed.subscribe('http.server.response.finish', () => { counters[COUNTER.httpFinished]++ })
}

/**
 * Listener counts of the process, and of every emitter Node warned about
 * (its MaxListenersExceededWarning names the emitter and the event), so that
 * a count that keeps growing shows. Emitters are held weakly.
 * @param {import('../../installed.cjs').Installed} installed
 */
function watchListeners (installed) {
  /** @type {{ label: string, emitter: WeakRef<import('node:events').EventEmitter>, type: string | symbol }[]} */
  const watched = []
  installed.listen(process, 'warning', (warning) => {
    const w = /** @type {Error & { emitter?: import('node:events').EventEmitter, type?: string | symbol }} */ (warning)
    if (w.name !== 'MaxListenersExceededWarning' || !w.emitter || w.type === undefined || watched.length >= MAX_WATCHED) return
    const ctor = w.emitter.constructor && w.emitter.constructor.name
    watched.push({ label: `${ctor || 'EventEmitter'} "${String(w.type)}"`, emitter: new WeakRef(w.emitter), type: w.type })
  })
  return {
    count () {
      let total = 0
      for (const name of process.eventNames()) total += process.listenerCount(name)
      /** @type {Record<string, number>} */
      const counts = { process: total }
      for (const w of watched) {
        const emitter = w.emitter.deref()
        if (emitter) counts[w.label] = (counts[w.label] || 0) + emitter.listenerCount(w.type)
      }
      return counts
    }
  }
}

module.exports = { heapSpaces, activeResources, watchGc, watchHttp, watchListeners }
