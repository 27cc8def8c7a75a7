'use strict'
/**
 * The doctor collector: what the app's event loop, CPU, memory, GC, handles
 * and HTTP server did, every sample interval (10 ms by default).
 *
 * main() runs on the app's main thread. On a timer it reads what only that
 * thread can (loop delay, loop utilization, its heap, GC pauses, handles,
 * requests) and copies the figures as one row of numbers per tick into a
 * ring in shared memory, with a heartbeat beside it; ten times a second the
 * slower-moving figures go as a line of text into a second ring. Every object
 * and every line of text the tick would make costs the app more than the
 * figures themselves: at a hundred ticks a second beside a saturated server,
 * its code and data are out of the CPU's caches each time.
 *
 * worker() runs in the agent's worker thread. On its own timer it makes the
 * rows into lines of `<pid>.doctor.jsonl`, and watches the heartbeat: when the main
 * thread is stuck no line comes, so the worker writes its own, with the delay
 * so far (growing until the loop turns again) and the process's CPU and rss,
 * which a worker can read. Four times a second it sends dyno a summary for
 * the live view. Asked by dyno, it runs a full GC and reads what the app
 * still holds (./doctor/full-gc.cjs).
 *
 * A line of `<pid>.doctor.jsonl` (ms and bytes; every figure but `t` is for
 * the interval since the line before):
 *   t         epoch ms when the sample was taken
 *   dt        ms since the line before
 *   delay     loop delay in the interval: how late the collector's probes ran,
 *             beyond their period: { min, p50, p99, max, n } (n probes); null when none
 *   elu       event-loop utilization, 0..1
 *   cpu       { user, system }: ms of CPU the whole process used; the worker reads
 *             it once a watch (125 ms) and shares it among the lines by their span
 *   gc        { <kind>: [pauses, ms], max: the longest pause }; kinds: scavenge,
 *             minorMarkSweep, markCompact, incremental, weakCallbacks
 *   http      { started, finished, inFlight } requests of the app's HTTP servers
 *   self      ms the collector's previous tick took on the main thread: its own cost
 *   every 100 ms, the slower-moving:
 *   mem       { heapTotal, heapUsed, rss, external, arrayBuffers }
 *   spaces    { <V8 heap space>: [size, used] }
 *   active    { <resource type>: count } (process.getActiveResourcesInfo())
 *   listeners { process: n, '<Class> "<event>"': n } for emitters Node warned about
 *   blocked   true on a line the worker wrote while the main thread was stuck;
 *             such a line has delay.max (how long so far), elu 1, cpu and mem.rss
 */
const { performance } = require('node:perf_hooks')
const { setTimeout: sleep } = require('node:timers/promises')
const { heapSpaces, activeResources, watchGc, watchHttp, watchListeners } = require('./doctor/readers.cjs')
const { LoopDelay, probePlan } = require('./doctor/loop-delay.cjs')
const { LineRing } = require('./doctor/ring.cjs')
const { RowRing } = require('./doctor/row-ring.cjs')
const { COUNTER, COUNTER_LENGTH, ROW, ROW_LENGTH, rowToSample } = require('./doctor/sample-row.cjs')
const { round } = require('./doctor/round.cjs')
const { fullGc } = require('./doctor/full-gc.cjs')
const { watchOpenRequests } = require('../open-requests.cjs')
const { untilSettled } = require('../settle.cjs')

/** `<pid>.doctor.jsonl` */
const SUFFIX = 'jsonl'
const DEFAULT_INTERVAL_MS = 10
/** How often the slower-moving figures (rss, external, heap spaces, handles, listeners) are read. */
const SLOW_MS = 100
/**
 * How often the worker drains the ring and looks whether the main thread is
 * stuck. Each time it wakes it takes the CPU from the app for a moment (the
 * app may have only one core), so it wakes seldom, on one timer.
 */
const WATCH_MS = 125
/** How often the worker writes what it has and sends dyno a summary: every second watch. */
const FLUSH_MS = 250
/** The longest a full GC waits for the rows after it. */
const SETTLE_MS = 2000
/** Room for some 40 s of rows at the default interval, should the worker fall behind. */
const RING_ROWS = 4096
/** Room for the slower-moving figures of as long. */
const SLOW_RING_BYTES = 1 << 18

const origin = performance.timeOrigin
const now = () => origin + performance.now()

/** @param {{ sampleIntervalMs?: number } | undefined} options */
function intervalOf (options) {
  const ms = Number(options && options.sampleIntervalMs)
  return ms >= 1 ? ms : DEFAULT_INTERVAL_MS
}

/** @param {import('../collectors.cjs').MainContext} context */
function main (context) {
  const intervalMs = intervalOf(context.options)
  const { perSample, periodMs } = probePlan(intervalMs)

  const rows = RowRing.create(ROW_LENGTH, RING_ROWS)
  const slow = LineRing.create(SLOW_RING_BYTES)
  const base = Math.floor(now())
  rows.beat(0)
  /** Where the running figures start from: now, with no idle time, request or GC yet. */
  const start = new Float64Array(ROW_LENGTH)
  start[ROW.t] = now()
  start[ROW.idle] = performance.nodeTiming.idleTime
  context.post({ type: 'start', rows: rows.buffer, slow: slow.buffer, start, base, intervalMs })

  const delay = new LoopDelay(periodMs, now())
  const counters = new Float64Array(COUNTER_LENGTH)
  const { installed } = context
  watchGc(counters, installed)
  watchHttp(counters, installed)
  watchOpenRequests(installed)
  const listeners = watchListeners(installed)
  const values = rows.values
  let lastSlow = -Infinity
  /** How long the last tick took: what the collector costs the main thread. */
  let lastCost = 0

  /** @param {number} t */
  const tick = (t) => {
    // The heartbeat first: the worker, seeing it, knows a row taken no
    // earlier than this is coming, and writes no line of its own before it.
    rows.beat(Math.round(t - base))
    const at = rows.next()
    values[at + ROW.t] = t
    values[at + ROW.idle] = performance.nodeTiming.idleTime
    values[at + ROW.self] = lastCost
    delay.takeInto(values, at + ROW.delay)
    values.set(counters, at + ROW.counters)
    counters[COUNTER.gcMax] = 0
    // By time, not by ticks: a loop held for long ticks seldom. The heap's
    // figures too: V8 walks its spaces to sum them, and ten times a second
    // is all a chart or a trend needs. Before the row, so that the worker
    // has them when it takes the row.
    if (t - lastSlow >= SLOW_MS) {
      lastSlow = t
      const memory = process.memoryUsage()
      slow.push(JSON.stringify({
        t,
        mem: { heapTotal: memory.heapTotal, heapUsed: memory.heapUsed, rss: memory.rss, external: memory.external, arrayBuffers: memory.arrayBuffers },
        spaces: heapSpaces(),
        active: activeResources(),
        listeners: listeners.count()
      }) + '\n')
    }
    rows.commit()
    lastCost = now() - t
  }
  // One timer: it probes the loop's delay, and every few probes takes the sample.
  let probes = 0
  installed.repeat(() => {
    const t = now()
    delay.probe(t)
    if (++probes < perSample) return
    probes = 0
    tick(t)
  }, periodMs)
  // A last sample as the process ends, before the agent's worker writes its
  // last lines: the requests since the last tick count too.
  installed.listen(process, 'exit', () => tick(now()), { prepend: true })
}

/** @param {import('../collectors.cjs').WorkerContext} context */
function worker (context) {
  const intervalMs = intervalOf(context.options)
  const watchMs = Math.max(WATCH_MS, intervalMs)
  /** @type {RowRing | null} */
  let rows = null
  /** @type {LineRing | null} */
  let slow = null
  /** The row before the next: its running figures are what the next line's start from. */
  const before = new Float64Array(ROW_LENGTH)
  /** Slower-moving figures whose row has not been taken yet, by the row's `t`. */
  const slowByT = new Map()
  let base = 0
  let lastT = now()
  let cpuRead = process.cpuUsage()
  /** CPU the process used since the last line, read but not yet given to a line (µs). */
  let pending = { user: 0, system: 0 }
  let lines = ''
  let ended = false
  const live = liveSummary()

  /**
   * Writes a sample as a line.
   * @param {Record<string, any> & { t: number }} sample
   * @param {{ user: number, system: number }} cpu µs of CPU the process used in the interval
   */
  function record (sample, cpu) {
    const { t, ...rest } = sample
    const line = {
      t: round(t, 1),
      dt: round(Math.max(0, t - lastT), 3),
      ...rest,
      cpu: { user: round(cpu.user / 1000, 3), system: round(cpu.system / 1000, 3) }
    }
    lastT = t
    lines += JSON.stringify(line) + '\n'
    live.add(line)
  }

  /** The main thread's rows since the last take, as samples with their slower-moving figures. */
  function takeSamples () {
    /** @type {(Record<string, any> & { t: number })[]} */
    const samples = []
    const ring = /** @type {RowRing} */ (rows)
    // Rows first: the slower-moving figures of a row taken here were written before it.
    ring.take((row) => {
      samples.push(rowToSample(row, before))
      before.set(row)
    })
    for (const text of /** @type {LineRing} */ (slow).drain().split('\n')) {
      if (!text) continue
      const figures = JSON.parse(text)
      slowByT.set(figures.t, figures)
    }
    for (const sample of samples) {
      const figures = slowByT.get(sample.t)
      if (!figures) continue
      slowByT.delete(sample.t)
      const { t, ...rest } = figures
      Object.assign(sample, rest)
    }
    // Those of a row dropped for want of room never find it.
    const last = samples.length > 0 ? samples[samples.length - 1].t : -Infinity
    for (const t of slowByT.keys()) if (t < last) slowByT.delete(t)
    return samples
  }

  // The main thread's lines, then, if its last tick is a watch period late,
  // a line of the worker's own: it is stuck, and for how long so far.
  function watch () {
    if (!rows) return
    const samples = takeSamples()
    // Now, then the heartbeat: a tick that starts after this read starts after `t`.
    const t = now()
    // The process's CPU is read here, once a watch, and shared among the
    // lines by the time each spans: read by the main thread each sample, a
    // system call a hundred times a second, it cost a saturated server ~2%.
    const cpu = process.cpuUsage()
    pending.user += Math.max(0, cpu.user - cpuRead.user)
    pending.system += Math.max(0, cpu.system - cpuRead.system)
    cpuRead = cpu
    for (const sample of samples) {
      const span = t - lastT
      const share = span > 0 ? Math.min(1, Math.max(0, sample.t - lastT) / span) : 1
      const part = { user: pending.user * share, system: pending.system * share }
      pending.user -= part.user
      pending.system -= part.system
      record(sample, part)
    }
    const late = t - (base + rows.lastBeat()) - intervalMs
    if (late >= watchMs && t - lastT >= watchMs) {
      record({ t, blocked: true, delay: { max: round(late, 3) }, elu: 1, mem: { rss: process.memoryUsage.rss() } }, pending)
      pending = { user: 0, system: 0 }
    }
  }

  function flush () {
    if (lines) {
      context.append(SUFFIX, lines)
      lines = ''
    }
    const summary = live.take()
    if (summary) context.send(summary)
  }

  context.onMain((message) => {
    if (message && message.type === 'start' && !rows) {
      rows = new RowRing(message.rows, ROW_LENGTH)
      slow = new LineRing(message.slow)
      before.set(message.start)
      lastT = message.start[ROW.t]
      base = message.base
    }
  })
  /** Waits, a watch at a time, until `done()` holds of the rows taken, or `limitMs` has passed. */
  async function until (/** @type {() => boolean} */ done, /** @type {number} */ limitMs) {
    const end = now() + limitMs
    while (!done() && now() < end) await sleep(watchMs)
  }
  context.onCommand(async (command) => {
    if (!command || command.action !== 'full-gc') return { error: `unknown action ${command && command.action}` }
    // Requests still in flight (the load's last, whose client has gone) hold memory the app lets go of once they end.
    const settled = await untilSettled(context.session(), Math.max(0, Number(command.settleMs) || 0))
    // A blocked loop runs no GC for dyno either: the analysis does with V8's own.
    if (settled.blocked) return { error: 'the app\'s main thread did not answer: its event loop is blocked' }
    const reading = await fullGc(context.session(), now)
    // Until rows taken after the pause are in: it is in a line that ends before dyno goes on.
    await until(() => before[ROW.t] > reading.t + 2 * intervalMs, SETTLE_MS)
    return { ...reading, inFlight: settled.inFlight, settleMs: settled.waitedMs }
  })
  const watchesPerFlush = Math.max(1, Math.round(FLUSH_MS / watchMs))
  let watches = 0
  const watching = setInterval(() => {
    watch()
    if (++watches % watchesPerFlush === 0) flush()
  }, watchMs)

  return {
    async end () {
      if (ended) return
      ended = true
      clearInterval(watching)
      watch()
      flush()
    }
  }
}

/** What the live view shows: the lines since it was last sent, summed up. */
function liveSummary () {
  const blank = () => ({ from: 0, to: 0, delayMax: 0, busy: 0, cpu: 0, span: 0, finished: 0, blocked: false })
  let acc = blank()
  /** @type {number | null} */
  let heapUsed = null
  let rss = 0
  return {
    /** @param {any} line */
    add (line) {
      if (acc.span === 0) acc.from = line.t - line.dt
      acc.to = line.t
      if (line.delay && line.delay.max > acc.delayMax) acc.delayMax = line.delay.max
      acc.busy += line.elu * line.dt
      acc.cpu += line.cpu.user + line.cpu.system
      acc.span += line.dt
      if (line.http) acc.finished += line.http.finished
      if (line.blocked) acc.blocked = true
      if (line.mem && line.mem.heapUsed !== undefined) heapUsed = line.mem.heapUsed
      if (line.mem && line.mem.rss !== undefined) rss = line.mem.rss
    },
    take () {
      if (acc.span === 0) return null
      const seconds = (acc.to - acc.from) / 1000
      const summary = { t: round(acc.to, 1), delayMax: acc.delayMax, elu: round(acc.busy / acc.span, 3), cpu: round(acc.cpu / acc.span, 3), heapUsed, rss, rps: round(acc.finished / seconds, 1), blocked: acc.blocked }
      acc = blank()
      return summary
    }
  }
}

module.exports = { main, worker }
