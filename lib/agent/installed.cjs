'use strict'
/**
 * What the agent installs on the app's main thread (timers, listeners,
 * diagnostics channel subscribers, observers, globals), installed through
 * one of these so that an agent brought into a running process
 * (attach.cjs) can take all of it out again.
 *
 * `permanent`, for the agent that came with the process (--require), installs
 * exactly as the calls would by hand and remembers nothing: it stays for the
 * process's life. `new Installed(true)` remembers how to undo each thing;
 * `undoAll()` undoes them, the last installed first, and from then on
 * installs nothing (a promise of a collector's may still settle after it).
 */
const diagnostics = require('node:diagnostics_channel')
const { PerformanceObserver } = require('node:perf_hooks')

class Installed {
  /** @param {boolean} undoable */
  constructor (undoable) {
    this.undoable = undoable
    this.undone = false
    /** @type {(() => void)[]} */
    this.undos = []
  }

  /** @param {() => void} undo runs at undoAll() */
  onUndo (undo) {
    if (this.undoable) this.undos.push(undo)
  }

  /**
   * An unref'd setInterval: it never keeps the app alive.
   * @param {() => void} fn @param {number} ms
   */
  repeat (fn, ms) {
    if (this.undone) return
    const timer = setInterval(fn, ms)
    timer.unref()
    this.onUndo(() => clearInterval(timer))
  }

  /**
   * Runs the functions in order, one a turn of the event loop (each from
   * an unref'd setImmediate); once undone, the rest never run.
   * @param {(() => void)[]} fns
   */
  inTurns (fns) {
    /** @type {NodeJS.Immediate | undefined} */
    let immediate
    /** @param {number} i */
    const next = (i) => {
      if (this.undone || i >= fns.length) return
      immediate = setImmediate(() => {
        try {
          fns[i]()
        } catch {}
        next(i + 1)
      })
      immediate.unref()
    }
    next(0)
    this.onUndo(() => clearImmediate(immediate))
  }

  /**
   * @param {import('node:events').EventEmitter} emitter
   * @param {string} event
   * @param {(...args: any[]) => void} fn
   * @param {{ prepend?: boolean }} [options] prepend: before the app's own listeners
   */
  listen (emitter, event, fn, { prepend = false } = {}) {
    if (this.undone) return
    if (prepend) emitter.prependListener(event, fn)
    else emitter.on(event, fn)
    this.onUndo(() => emitter.removeListener(event, fn))
  }

  /**
   * A diagnostics channel subscriber.
   * @param {string} name @param {(message: unknown, name: string | symbol) => void} fn
   */
  subscribe (name, fn) {
    if (this.undone) return
    diagnostics.subscribe(name, fn)
    this.onUndo(() => diagnostics.unsubscribe(name, fn))
  }

  /**
   * Subscribers to a tracing channel's events.
   * @param {string} name
   * @param {import('node:diagnostics_channel').TracingChannelSubscribers<object>} handlers
   */
  trace (name, handlers) {
    if (this.undone) return
    const channel = diagnostics.tracingChannel(name)
    channel.subscribe(handlers)
    this.onUndo(() => channel.unsubscribe(handlers))
  }

  /**
   * A PerformanceObserver of the given entry types.
   * @param {import('node:perf_hooks').EntryType[]} entryTypes
   * @param {import('node:perf_hooks').PerformanceObserverCallback} fn
   */
  observe (entryTypes, fn) {
    if (this.undone) return
    const observer = new PerformanceObserver(fn)
    observer.observe({ entryTypes })
    this.onUndo(() => observer.disconnect())
  }

  /**
   * `globalThis[key] = value`, as a plain assignment does.
   * @param {symbol} key @param {unknown} value
   */
  setGlobal (key, value) {
    if (this.undone) return
    /** @type {any} */ (globalThis)[key] = value
    this.onUndo(() => { delete (/** @type {any} */ (globalThis))[key] })
  }

  /**
   * A hidden (non-enumerable) global; one that can be deleted only when undoable.
   * @param {symbol} key @param {unknown} value
   */
  defineGlobal (key, value) {
    if (this.undone) return
    Object.defineProperty(globalThis, key, { value, enumerable: false, configurable: this.undoable })
    this.onUndo(() => { delete (/** @type {any} */ (globalThis))[key] })
  }

  /** Undoes everything, the last installed first; once. */
  undoAll () {
    if (this.undone) return
    this.undone = true
    const undos = this.undos.reverse()
    this.undos = []
    for (const undo of undos) {
      try {
        undo()
      } catch {}
    }
  }
}

const permanent = new Installed(false)

module.exports = { Installed, permanent }
