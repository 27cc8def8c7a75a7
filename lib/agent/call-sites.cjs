'use strict'
/**
 * Where an async operation was created, as the first frames of the app's own
 * code. A stack is captured with a small frame limit and keyed by its raw
 * frames (script and character position, which V8 has at hand); only the
 * first capture of each key pays for line numbers and function names. Sites
 * are numbered in the order they are first seen.
 */
const path = require('node:path')

/**
 * Raw frames captured: enough to get past Node's own frames and a client
 * library's (undici behind fetch, a database driver's pool) to the app's.
 */
const PROMISE_FRAMES = 16
const OTHER_FRAMES = 20
/** The app's frames kept for a site. */
const KEPT_FRAMES = 4
/** A remembered site is captured again, to check it, once in this many uses. */
const CHECK_EVERY = 4
/**
 * A site is remembered only once this many captures agreed with the first:
 * the first requests of a server open connections and fill caches, and make
 * other operations, in another order, than the ones after them.
 */
const CONFIRMATIONS = 2

const AGENT_DIR = __dirname + path.sep

/**
 * @typedef {[fn: string, file: string, line: number, column: number]} Frame
 * @typedef {{ id: number, frames: Frame[], app: boolean, own: boolean, callee?: Frame }} Site
 *   app: false when no frame was the app's own (Node or a dependency made it);
 *   own: the innermost frame is the app's (its own `await`, not one inside a library it called);
 *   callee: the function of Node's or of a dependency that the app's innermost frame called
 */

class CallSites {
  constructor () {
    /** Sites by their raw frames. @type {Map<string, number>} */
    this.byKey = new Map()
    /** Sites by their description: raw frames that differ only in Node's frames below the app's are one site. @type {Map<string, number>} */
    this.byFrames = new Map()
    /** Whether each site, by id, has a frame of the app's. @type {boolean[]} */
    this.apps = []
    /** @type {Site[]} sites not yet handed out by takeNew() */
    this.fresh = []
    /** What the same callback made last time, by place in it (see within()). @type {Map<number, { type: string, site: number, uses: number, confirmed: number, stable: boolean }>} */
    this.remembered = new Map()
    this.count = 0
    this.keyOf = this.keyOf.bind(this)
  }

  /**
   * The site of the code that called `below` (frames above it are left out).
   * @param {Function} below
   * @param {boolean} promise
   * @returns {number}
   */
  capture (below, promise) {
    const limit = Error.stackTraceLimit
    const prepare = Error.prepareStackTrace
    Error.stackTraceLimit = promise ? PROMISE_FRAMES : OTHER_FRAMES
    Error.prepareStackTrace = this.keyOf
    /** @type {{ stack?: unknown }} */
    const holder = {}
    let site = -1
    try {
      Error.captureStackTrace(holder, below)
      site = /** @type {number} */ (holder.stack)
    } catch {
    } finally {
      Error.prepareStackTrace = prepare
      Error.stackTraceLimit = limit
    }
    return site
  }

  /**
   * The site of the `nth` operation made by a callback (or continuation) of
   * an operation made at `callbackSite`. The same code runs again and again
   * (each turn of a loop continues from the same await), making the same
   * operations in the same order: what was made there last time is taken
   * again, and checked by a capture once in CHECK_EVERY uses. A place where
   * the check fails (code that branches) is captured every time from then on.
   * @param {number} callbackSite
   * @param {number} nth
   * @param {string} type
   * @param {Function} below
   */
  within (callbackSite, nth, type, below) {
    const key = callbackSite * 4096 + Math.min(nth, 4095)
    const last = this.remembered.get(key)
    if (last && last.stable && last.type === type && last.confirmed >= CONFIRMATIONS && ++last.uses % CHECK_EVERY !== 0) return last.site
    const site = this.capture(below, type === 'PROMISE')
    if (!last) this.remembered.set(key, { type, site, uses: 0, confirmed: 0, stable: true })
    else if (last.type !== type || last.site !== site) last.stable = false
    else last.confirmed++
    return site
  }

  /**
   * Error.prepareStackTrace while capturing: the site's number.
   * @param {unknown} _error
   * @param {NodeJS.CallSite[]} frames
   */
  keyOf (_error, frames) {
    let key = ''
    for (let i = 0; i < frames.length; i++) {
      const frame = frames[i]
      key += frame.getFileName() + ':' + /** @type {any} */ (frame).getPosition() + ';'
    }
    let id = this.byKey.get(key)
    if (id === undefined) {
      const site = describe(this.count, frames)
      const described = JSON.stringify([site.frames, site.own, site.callee])
      id = this.byFrames.get(described)
      if (id === undefined) {
        id = this.count++
        this.apps[id] = site.app
        this.byFrames.set(described, id)
        this.fresh.push(site)
      }
      this.byKey.set(key, id)
    }
    return id
  }

  /** @param {number} id whether the site has a frame of the app's */
  isApp (id) {
    return this.apps[id] === true
  }

  /** Sites first seen since the last call. */
  takeNew () {
    const fresh = this.fresh
    this.fresh = []
    return fresh
  }
}

/**
 * @param {number} id
 * @param {NodeJS.CallSite[]} frames
 * @returns {Site}
 */
function describe (id, frames) {
  /** @type {Frame[]} */
  const app = []
  /** @type {Frame[]} */
  const other = []
  /** @type {NodeJS.CallSite | undefined} */
  let lastOther
  /** @type {Frame | undefined} */
  let callee
  for (const frame of frames) {
    const file = frame.getFileName()
    // Node's async_hooks frames say only that an operation was made, not by whom; V8 adds the
    // awaiting callers (async frames) to some stacks and not to others of the same code.
    if (!file || file.startsWith(AGENT_DIR) || file === 'node:internal/async_hooks' || frame.isAsync()) continue
    const described = /** @type {Frame} */ ([plainName(frame), file, frame.getLineNumber() || 0, frame.getColumnNumber() || 0])
    if (isAppFile(file)) {
      if (app.length === 0 && lastOther) {
        const [, calleeFile, calleeLine, calleeColumn] = other[other.length - 1]
        callee = [functionName(lastOther), calleeFile, calleeLine, calleeColumn]
      }
      app.push(described)
    } else if (app.length === 0) {
      other.push(described)
      lastOther = frame
    }
    if (app.length === KEPT_FRAMES) break
  }
  if (app.length === 0) return { id, frames: other.slice(0, 2), app: false, own: false }
  /** @type {Site} */
  const site = { id, frames: app, app: true, own: other.length === 0 }
  if (callee) site.callee = callee
  return site
}

/**
 * A frame's function as a reader knows it: `Pool.query` for a method, the
 * name alone otherwise.
 * @param {NodeJS.CallSite} frame
 */
function functionName (frame) {
  const name = plainName(frame)
  if (!name || name.includes('.') || frame.isToplevel() || frame.isConstructor()) return name
  const type = frame.getTypeName()
  return type && type !== 'Object' && type !== 'Function' ? `${type}.${name}` : name
}

/** @param {NodeJS.CallSite} frame */
function plainName (frame) {
  return frame.getFunctionName() || frame.getMethodName() || ''
}

/** @param {string} file */
function isAppFile (file) {
  return !file.startsWith('node:') && !file.startsWith('wasm:') && !file.includes('/node_modules/') && !file.includes('\\node_modules\\')
}

module.exports = { CallSites }
