'use strict'
/**
 * The doctor collector: what the app's event loop, CPU, memory, GC, handles
 * and HTTP server did, every sample interval (10 ms by default).
 *
 * main() runs on the app's main thread. On a timer it reads what only that
 * thread can (loop delay, loop utilization, its heap, GC pauses, handles,
 * requests) and appends one line per tick to a ring in shared memory, with a
 * heartbeat beside it.
 *
 * worker() runs in the agent's worker thread. On its own timer it drains the
 * ring into `<pid>.doctor.jsonl`, and watches the heartbeat: when the main
 * thread is stuck no line comes, so the worker writes its own, with the delay
 * so far (growing until the loop turns again) and the process's CPU and rss,
 * which a worker can read. Four times a second it sends dyno a summary for
 * the live view.
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
const { heapSpaces, activeResources, watchGc, watchHttp, watchListeners, round } = require('./doctor/readers.cjs')
const { LoopDelay, probePlan } = require('./doctor/loop-delay.cjs')
const { LineRing } = require('./doctor/ring.cjs')

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
/** Room for a few seconds of lines, should the worker fall behind. */
const RING_BYTES = 1 << 20

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

  const ring = LineRing.create(RING_BYTES)
  const base = Math.floor(now())
  ring.beat(0)
  context.post({ type: 'start', ring: ring.buffer, base, intervalMs })

  const delay = new LoopDelay(periodMs, now())
  const gc = watchGc()
  const http = watchHttp()
  const listeners = watchListeners()
  let elu = performance.eventLoopUtilization()
  let lastSlow = -Infinity
  /** How long the last tick took: what the collector costs the main thread. */
  let lastCost = 0

  /** @param {number} t */
  const tick = (t) => {
    // The heartbeat first: the worker, seeing it, knows a line taken no
    // earlier than this is coming, and writes no line of its own before it.
    ring.beat(Math.round(t - base))
    const nextElu = performance.eventLoopUtilization()
    /** @type {Record<string, unknown>} */
    const sample = {
      t,
      delay: delay.take(),
      elu: round(performance.eventLoopUtilization(nextElu, elu).utilization, 4),
      gc: gc.take(),
      http,
      self: round(lastCost, 3)
    }
    // By time, not by ticks: a loop held for long ticks seldom. The heap's
    // figures too: V8 walks its spaces to sum them, and ten times a second
    // is all a chart or a trend needs.
    if (t - lastSlow >= SLOW_MS) {
      lastSlow = t
      const memory = process.memoryUsage()
      sample.mem = { heapTotal: memory.heapTotal, heapUsed: memory.heapUsed, rss: memory.rss, external: memory.external, arrayBuffers: memory.arrayBuffers }
      sample.spaces = heapSpaces()
      sample.active = activeResources()
      sample.listeners = listeners.count()
    }
    elu = nextElu
    ring.push(JSON.stringify(sample) + '\n')
    lastCost = now() - t
  }
  // One timer: it probes the loop's delay, and every few probes takes the sample.
  let probes = 0
  setInterval(() => {
    const t = now()
    delay.probe(t)
    if (++probes < perSample) return
    probes = 0
    tick(t)
  }, periodMs).unref()
  // A last sample as the process ends, before the agent's worker writes its
  // last lines: the requests since the last tick count too.
  process.prependListener('exit', () => tick(now()))
}

/** @param {import('../collectors.cjs').WorkerContext} context */
function worker (context) {
  const intervalMs = intervalOf(context.options)
  const watchMs = Math.max(WATCH_MS, intervalMs)
  /** @type {LineRing | null} */
  let ring = null
  let base = 0
  let lastT = now()
  let cpuRead = process.cpuUsage()
  /** CPU the process used since the last line, read but not yet given to a line (µs). */
  let pending = { user: 0, system: 0 }
  let lastHttp = { started: 0, finished: 0 }
  let lines = ''
  let ended = false
  const live = liveSummary()

  /**
   * Writes a sample as a line, its running request counts made into the
   * interval's since the line before.
   * @param {Record<string, any> & { t: number }} sample
   * @param {{ user: number, system: number }} cpu µs of CPU the process used in the interval
   */
  function record (sample, cpu) {
    const { t, http, ...rest } = sample
    /** @type {Record<string, any>} */
    const line = {
      t: round(t, 1),
      dt: round(Math.max(0, t - lastT), 3),
      ...rest,
      cpu: { user: round(cpu.user / 1000, 3), system: round(cpu.system / 1000, 3) }
    }
    if (http) {
      line.http = { started: http.started - lastHttp.started, finished: http.finished - lastHttp.finished, inFlight: http.started - http.finished }
      lastHttp = http
    }
    lastT = t
    lines += JSON.stringify(line) + '\n'
    live.add(line)
  }

  // The main thread's lines, then, if its last tick is a watch period late,
  // a line of the worker's own: it is stuck, and for how long so far.
  function watch () {
    if (!ring) return
    /** @type {(Record<string, any> & { t: number })[]} */
    const samples = []
    for (const text of ring.drain().split('\n')) {
      if (text) samples.push(JSON.parse(text))
    }
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
    const late = t - (base + ring.lastBeat()) - intervalMs
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
    if (message && message.type === 'start' && !ring) {
      ring = new LineRing(message.ring)
      base = message.base
    }
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
