'use strict'
/**
 * What the doctor collector reads on the app's main thread, each reader cheap
 * enough to run a hundred times a second next to a saturated server.
 */
const { PerformanceObserver } = require('node:perf_hooks')
const diagnostics = require('node:diagnostics_channel')
const v8 = require('node:v8')

/** The most emitters whose listeners are followed. */
const MAX_WATCHED = 20

const GC_KINDS = { 1: 'scavenge', 2: 'minorMarkSweep', 4: 'markCompact', 8: 'incremental', 16: 'weakCallbacks' }

const round = (/** @type {number} */ n, /** @type {number} */ digits) => Math.round(n * 10 ** digits) / 10 ** digits

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

/** GC pauses by kind, summed until taken. */
function watchGc () {
  /** @type {Record<string, [number, number]>} */
  let byKind = {}
  let max = 0
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = /** @type {{ detail?: { kind?: number } }} */ (/** @type {unknown} */ (entry)).detail
      const kind = GC_KINDS[/** @type {keyof typeof GC_KINDS} */ (detail && detail.kind)] || 'other'
      const tally = byKind[kind] || (byKind[kind] = [0, 0])
      tally[0]++
      tally[1] += entry.duration
      if (entry.duration > max) max = entry.duration
    }
  })
  observer.observe({ entryTypes: ['gc'] })
  return {
    take () {
      /** @type {Record<string, [number, number] | number>} */
      const taken = {}
      for (const kind in byKind) taken[kind] = [byKind[kind][0], round(byKind[kind][1], 3)]
      taken.max = round(max, 3)
      byKind = {}
      max = 0
      return taken
    }
  }
}

/**
 * Requests the app's HTTP servers started and finished so far, from Node's
 * diagnostics channels: nothing of the app's is wrapped.
 */
function watchHttp () {
  const counts = { started: 0, finished: 0 }
  diagnostics.subscribe('http.server.request.start', () => { counts.started++ })
  diagnostics.subscribe('http.server.response.finish', () => { counts.finished++ })
  return counts
}

/**
 * Listener counts of the process, and of every emitter Node warned about
 * (its MaxListenersExceededWarning names the emitter and the event), so that
 * a count that keeps growing shows. Emitters are held weakly.
 */
function watchListeners () {
  /** @type {{ label: string, emitter: WeakRef<import('node:events').EventEmitter>, type: string | symbol }[]} */
  const watched = []
  process.on('warning', (warning) => {
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

module.exports = { heapSpaces, activeResources, watchGc, watchHttp, watchListeners, round }
