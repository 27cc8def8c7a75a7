import { opKind } from './data.js'

/**
 * One traced request's operations as a graph: which promises are awaits (made
 * by `await` or `.then`, waiting on another), and the chains of waits in which
 * the app's code continued one step after another.
 *
 * A step is one place where the app's code waited: an `await`, or the
 * callback of a `.then`. It has the site of that line, and the time the work
 * it waited for ran (from when that work was started to when it settled).
 * A step is serial when its work was started only after the step before it
 * in the chain had resumed, so the two never overlapped.
 *
 * @typedef {import('./data.js').AsyncOp} AsyncOp
 * @typedef {import('./data.js').AsyncSite} AsyncSite
 * @typedef {import('./data.js').TracedRequest} TracedRequest
 *
 * @typedef {object} Step
 * @property {AsyncOp} op the await's promise, or the `.then` promise whose callback started the work
 * @property {number} site
 * @property {string} place the line of the site (sites that differ only in their callers are one place)
 * @property {number} start when the work waited for was started
 * @property {number} end when it settled
 * @property {boolean} serial started only after the previous step of its chain resumed
 * @property {string | null} waitedOn the function of Node's or a library's that made the work (`fetch`, `Pool.query`), when known
 * @property {boolean} callback a callback's wait (callback-style code), not an await's
 * @property {number} frame which of the site's frames is the step's line: 0 for an await; for a callback's wait,
 *   the first where the chain's steps part (a query helper of the app's, called from three lines, is three places)
 */

/** A wait shorter than this (an `await` of a value at hand) is not a step. */
export const MIN_STEP_MS = 0.1

/** Operations Node makes for its own bookkeeping, not waits of the app's. */
const BOOKKEEPING = new Set(['TickObject', 'WRITEWRAP', 'SHUTDOWNWRAP', 'HTTPINCOMINGMESSAGE', 'HTTPSERVERASYNCRESOURCE', 'Microtask'])

export class RequestGraph {
  /**
   * @param {TracedRequest} request
   * @param {Map<number, AsyncSite>} sites
   */
  constructor (request, sites) {
    this.request = request
    this.sites = sites
    /** @type {Map<number, AsyncOp>} */
    this.byId = new Map(request.ops.map((op) => [op.id, op]))
    /** @type {Set<number> | null} the operations whose callbacks started work */
    this.workExecs = null
  }

  /**
   * When it settled: a promise's resolution, the last callback of a pooled
   * connection's reply, another operation's callback; -1 for never.
   * @param {AsyncOp} op
   */
  settled (op) {
    return op.type === 'PROMISE' || op.type === 'SOCKETREPLY' ? op.resolved : op.before
  }

  /**
   * A promise made by `await` or `.then` on another promise: its trigger is
   * the promise waited on (a new promise's trigger is the code that made it).
   * @param {AsyncOp} op
   */
  isAwait (op) {
    if (op.type !== 'PROMISE' || op.trigger === op.exec) return false
    const awaited = this.byId.get(op.trigger)
    return awaited === undefined || awaited.type === 'PROMISE'
  }

  /**
   * An await or `.then` in the app's own code: not one inside a library the
   * app called (pg-pool's `.catch` on the promise it returns), nor one V8
   * makes to wait on a thenable (those wait on the same thing as the app's).
   * @param {AsyncOp} op
   */
  isAppAwait (op) {
    const site = this.sites.get(op.site)
    return this.isAwait(op) && site?.app === true && site.own
  }

  /** @param {AsyncOp} op an operation of the app's, not Node's bookkeeping */
  isWork (op) {
    return !BOOKKEEPING.has(op.type) && !this.isAwait(op)
  }

  /**
   * The line a site is at, as a key: the same line reached from different
   * callers is one place.
   * @param {number} site
   */
  placeOf (site) {
    const frame = this.sites.get(site)?.frames[0]
    return frame ? `${frame.file}:${frame.line}:${frame.column}` : `#${site}`
  }

  /**
   * What an operation waited on, named by the function of Node's or a
   * library's that the app called to make it: for an await, that of the
   * promise awaited.
   * @param {AsyncOp} op
   * @returns {string | null}
   */
  waitedOn (op) {
    const work = this.isAwait(op) ? this.byId.get(op.trigger) ?? op : op
    // A timer says what it is: `setTimeout` adds nothing.
    if (['timer', 'tick'].includes(opKind(work.type))) return null
    return this.sites.get(work.site)?.callee?.fn || null
  }

  /** @param {number} site the function that code at `site` is in: its name and file */
  functionOf (site) {
    const frame = this.sites.get(site)?.frames[0]
    return frame ? `${frame.fn}\n${frame.file}` : null
  }

  /**
   * Chains of steps: the awaits of one call of an async function, in order,
   * the links of a `.then` chain, and callbacks each started in the one
   * before.
   * @returns {Step[][]}
   */
  chains () {
    return [...this.awaitChains(), ...this.callbackChains()]
  }

  /**
   * Chains of callback-style waits: work of the app's (a query, a read, a
   * timer) started in the callback of the work before it, directly or
   * through Node's ticks.
   * @returns {Step[][]}
   */
  callbackChains () {
    const work = this.request.ops.filter((op) => op.type !== 'PROMISE' && this.isWork(op) && this.sites.get(op.site)?.app === true && this.settled(op) >= 0)
    const ids = new Set(work.map((op) => op.id))
    /** The first work each work's callback started. @type {Map<number, AsyncOp>} */
    const next = new Map()
    /** @type {Set<number>} */
    const hasPrevious = new Set()
    for (const op of work) {
      let maker = this.byId.get(op.exec)
      for (let depth = 0; maker && BOOKKEEPING.has(maker.type) && depth < 8; depth++) maker = this.byId.get(maker.exec)
      if (!maker || !ids.has(maker.id) || next.has(maker.id)) continue
      next.set(maker.id, op)
      hasPrevious.add(op.id)
    }
    /** @type {Step[][]} */
    const chains = []
    for (const first of work) {
      if (hasPrevious.has(first.id) || !next.has(first.id)) continue
      /** @type {Step[]} */
      const steps = []
      for (let op = /** @type {AsyncOp | undefined} */ (first); op; op = next.get(op.id)) {
        const end = this.settled(op)
        if (end - op.created < MIN_STEP_MS) continue
        steps.push({ op, site: op.site, place: this.stackOf(op.site), start: op.created, end, serial: true, waitedOn: this.waitedOn(op), callback: true, frame: 0 })
      }
      if (steps.length > 0) chains.push(this.withFrames(steps))
    }
    return chains
  }

  /**
   * The steps of a callback chain, each with the first of its frames where
   * the chain's steps part.
   * @param {Step[]} steps
   */
  withFrames (steps) {
    const stacks = steps.map((step) => this.sites.get(step.site)?.frames ?? [])
    const depth = Math.min(...stacks.map((frames) => frames.length))
    const key = (/** @type {import('./data.js').SiteFrame | undefined} */ f) => f ? `${f.file}:${f.line}:${f.column}` : ''
    let frame = 0
    while (frame < depth - 1 && stacks.every((frames) => key(frames[frame]) === key(stacks[0][frame]))) frame++
    if (stacks.every((frames) => key(frames[frame]) === key(stacks[0][frame]))) frame = 0
    for (const step of steps) step.frame = frame
    return steps
  }

  /**
   * The app's frames of a site, as a key: a callback's wait made by one
   * helper from different places is as many places.
   * @param {number} site
   */
  stackOf (site) {
    const frames = this.sites.get(site)?.frames ?? []
    return frames.length > 0 ? frames.map((f) => `${f.file}:${f.line}:${f.column}`).join('<') : `#${site}`
  }

  /** @returns {Step[][]} */
  awaitChains () {
    const awaits = this.request.ops.filter((op) => this.isAppAwait(op))
    /** Awaits by the operation whose continuation made them. @type {Map<number, AsyncOp[]>} */
    const byExec = new Map()
    /** `.then` promises by the promise they are chained on. @type {Map<number, AsyncOp>} */
    const byTrigger = new Map()
    for (const op of awaits) {
      const list = byExec.get(op.exec)
      if (list) list.push(op)
      else byExec.set(op.exec, [op])
      if (!byTrigger.has(op.trigger)) byTrigger.set(op.trigger, op)
    }
    /** @type {Map<AsyncOp, AsyncOp>} */
    const next = new Map()
    /** @type {Set<AsyncOp>} */
    const hasPrevious = new Set()
    const link = (/** @type {AsyncOp} */ from, /** @type {AsyncOp} */ to) => {
      next.set(from, to)
      hasPrevious.add(to)
    }
    for (const op of awaits) {
      // An async function: its next await was made by this await's continuation, in the same function.
      const fn = this.functionOf(op.site)
      const following = byExec.get(op.id)?.find((o) => !hasPrevious.has(o) && this.functionOf(o.site) === fn)
      if (following) {
        link(op, following)
        continue
      }
      // A .then chain: the next link waits on this one.
      const chained = byTrigger.get(op.id)
      if (chained && chained.exec === op.exec && !hasPrevious.has(chained)) link(op, chained)
    }
    /** @type {Step[][]} */
    const chains = []
    for (const first of awaits) {
      if (hasPrevious.has(first)) continue
      /** @type {AsyncOp[]} */
      const ops = []
      for (let op = /** @type {AsyncOp | undefined} */ (first); op; op = next.get(op)) ops.push(op)
      const steps = this.steps(ops, next)
      if (steps.length > 0) chains.push(steps)
    }
    return chains
  }

  /**
   * @param {AsyncOp[]} ops a chain's promises, in order
   * @param {Map<AsyncOp, AsyncOp>} next
   * @returns {Step[]}
   */
  steps (ops, next) {
    /** @type {Step[]} */
    const steps = []
    let resumedAt = -Infinity
    /** @type {AsyncOp | null} */
    let previous = null
    for (const op of ops) {
      const following = next.get(op)
      let step
      if (following && following.trigger === op.id) {
        // A .then link: the work is what its callback started, and it ends when the link resolves.
        step = op.before >= 0 && op.resolved >= 0 && this.startedIn(op) ? { start: op.before, end: op.resolved } : null
      } else if (previous && op.trigger === previous.id) {
        // The last link of a .then chain: what it waited for was the step of the link before.
        step = null
      } else {
        const awaited = this.byId.get(op.trigger)
        const end = awaited ? this.settled(awaited) : op.before
        step = { start: awaited ? awaited.created : op.created, end: end >= 0 ? end : op.before }
      }
      if (step && step.end >= 0 && step.end - step.start >= MIN_STEP_MS) {
        steps.push({ op, site: op.site, place: this.placeOf(op.site), start: step.start, end: step.end, serial: step.start >= resumedAt - 0.05, waitedOn: this.waitedOn(op), callback: false, frame: 0 })
      }
      if (op.before >= 0) resumedAt = op.before
      previous = op
    }
    if (steps.length > 0) steps[0].serial = true
    return this.byExpression(steps)
  }

  /**
   * One step for the awaits of one expression: `await (await fetch(url)).json()`
   * waits twice on one line, at two columns, for one piece of work. An await
   * at a column already seen starts a new step (a loop's next turn).
   * @param {Step[]} steps
   * @returns {Step[]}
   */
  byExpression (steps) {
    /** @type {Step[]} */
    const merged = []
    /** @type {Set<number>} */
    let columns = new Set()
    let line = ''
    for (const step of steps) {
      const frame = this.sites.get(step.site)?.frames[0]
      const last = merged[merged.length - 1]
      if (last && frame && `${frame.file}:${frame.line}` === line && !columns.has(frame.column) && step.start >= last.start) {
        last.end = Math.max(last.end, step.end)
        columns.add(frame.column)
        continue
      }
      merged.push({ ...step })
      line = frame ? `${frame.file}:${frame.line}` : ''
      columns = new Set(frame ? [frame.column] : [])
    }
    return merged
  }

  /** @param {AsyncOp} op whether its continuation started work of the app's */
  startedIn (op) {
    if (!this.workExecs) {
      this.workExecs = new Set()
      for (const o of this.request.ops) if (this.isWork(o)) this.workExecs.add(o.exec)
    }
    return this.workExecs.has(op.id)
  }
}
