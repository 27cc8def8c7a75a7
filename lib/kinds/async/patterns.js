import { sum } from '../../stats/describe.js'
/**
 * The three patterns dyno async names, found in one traced request:
 *
 * - serial awaits: consecutive steps of a chain, each started only once the
 *   one before had settled. Together they take the sum of their waits; run
 *   together, the longest. Whether they depend on each other only the app's
 *   author knows.
 * - await in a loop: one site awaited again and again in one chain. In
 *   sequence the iterations take their sum; with Promise.all, the longest;
 *   ten at a time, what ten workers taking them in order would take.
 * - unbounded fan-out: many operations made at one site in one go, whose
 *   waits grow the later they were made: they queue for something that
 *   serves a few at a time.
 *
 * Chains that run side by side with others of the same function (the workers
 * of a concurrency-limited map, the calls of Promise.all(items.map(async …)))
 * are already concurrent, and are left out.
 *
 * @typedef {import('./request.js').Step} Step
 * @typedef {import('./request.js').RequestGraph} RequestGraph
 *
 * @typedef {object} SerialRun
 * @property {number} site the first await's site
 * @property {number[]} sites
 * @property {number[]} frames which frame of each site is its line (see Step)
 * @property {string[]} places their lines
 * @property {number[]} waits ms each
 * @property {(string | null)[]} waitedOn what each waited on, when known
 * @property {boolean} callbacks callback-style waits, each started in the callback of the one before
 * @property {number} sumMs
 * @property {number} longestMs
 *
 * @typedef {object} Loop
 * @property {number} site the await repeated
 * @property {number} frame which frame of the site is its line (see Step)
 * @property {string} place its line
 * @property {number} count iterations
 * @property {number[]} iterations ms each
 * @property {number} totalMs
 * @property {number} allMs with Promise.all: the longest iteration
 * @property {number} limitedMs with LIMIT at a time
 * @property {string | null} waitedOn what the await waited on, when known
 * @property {boolean} callbacks callback-style: each turn started in the callback of the one before
 *
 * @typedef {object} FanOut
 * @property {number} site where the operations were made
 * @property {number} awaitedAt the site that awaited them all, or -1
 * @property {string} place the line of the site that awaited them, else of the one that made them
 * @property {string} type
 * @property {number} count
 * @property {number[]} waits ms each, in the order they were made
 * @property {number} serviceMs the shortest wait: one operation's own time
 * @property {number} atOnce how many were served at once, by the first wave of them to settle
 * @property {number} spanMs from the first made to the last settled
 * @property {string | null} waitedOn what the operations were made by, when known
 */

/** How many times one site must be awaited in sequence to be a loop. */
export const LOOP_MIN = 3
/** The concurrency a bounded map is estimated with (p-map style). */
export const LIMIT = 10
/** How many operations made at once make a fan-out. */
export const FAN_OUT_MIN = 8
/** The share of a fan-out's operations that, settled in its first wave, show they were served side by side. */
const MOST_AT_ONCE = 0.75

/**
 * @param {Step[][]} chains
 * @param {RequestGraph} graph
 * @returns {{ serial: SerialRun[], loops: Loop[] }}
 */
export function findSequences (chains, graph) {
  /** @type {SerialRun[]} */
  const serial = []
  /** @type {Loop[]} */
  const loops = []
  const parallel = sideBySide(chains, graph)
  for (const chain of chains) {
    if (parallel.has(chain)) continue
    let rest = chain
    while (rest.length > 0) {
      const loop = firstLoop(rest)
      const before = loop ? rest.slice(0, loop.from) : rest
      serial.push(...serialRuns(before))
      if (!loop) break
      loops.push(loop.loop)
      rest = rest.slice(loop.to)
    }
  }
  return { serial, loops }
}

/**
 * Chains that overlap in time with another chain of the same function.
 * @param {Step[][]} chains @param {RequestGraph} graph
 */
function sideBySide (chains, graph) {
  /** @type {Map<string, Step[][]>} */
  const byFunction = new Map()
  for (const chain of chains) {
    const key = String(graph.functionOf(chain[0].site))
    const list = byFunction.get(key)
    if (list) list.push(chain)
    else byFunction.set(key, [chain])
  }
  /** @type {Set<Step[]>} */
  const parallel = new Set()
  for (const list of byFunction.values()) {
    if (list.length < 2) continue
    for (const a of list) {
      for (const b of list) {
        if (a !== b && a[0].start < b[b.length - 1].end && b[0].start < a[a.length - 1].end) {
          parallel.add(a)
          parallel.add(b)
        }
      }
    }
  }
  return parallel
}

/**
 * The first site awaited LOOP_MIN times or more in `steps`, as a loop over
 * its iterations: from each await of that site to the next, the last one as
 * long as the sites of the loop's body go on.
 * @param {Step[]} steps
 * @returns {{ loop: Loop, from: number, to: number } | null}
 */
function firstLoop (steps) {
  /** @type {Map<string, number>} */
  const counts = new Map()
  for (const step of steps) counts.set(step.place, (counts.get(step.place) ?? 0) + 1)
  const head = steps.find((step) => /** @type {number} */ (counts.get(step.place)) >= LOOP_MIN)
  if (!head) return null
  const at = steps.flatMap((step, i) => step.place === head.place ? [i] : [])
  const body = new Set(steps.slice(at[0], at[at.length - 1]).map((s) => s.place))
  let to = at[at.length - 1] + 1
  while (to < steps.length && body.has(steps[to].place)) to++
  const bounds = [...at, to]
  const iterations = at.map((from, i) => steps[bounds[i + 1] - 1].end - steps[from].start)
  return {
    from: at[0],
    to,
    loop: {
      site: head.site,
      frame: head.frame,
      place: head.place,
      count: at.length,
      iterations,
      totalMs: sum(iterations),
      allMs: Math.max(...iterations),
      limitedMs: limitedTime(iterations, LIMIT),
      waitedOn: head.waitedOn,
      callbacks: head.callback
    }
  }
}

/**
 * Runs of two or more consecutive serial steps.
 * @param {Step[]} steps
 * @returns {SerialRun[]}
 */
function serialRuns (steps) {
  /** @type {SerialRun[]} */
  const runs = []
  let run = /** @type {Step[]} */ ([])
  const close = () => {
    if (run.length >= 2) {
      const waits = run.map((s) => s.end - s.start)
      runs.push({ site: run[0].site, sites: run.map((s) => s.site), frames: run.map((s) => s.frame), places: run.map((s) => s.place), waits, waitedOn: run.map((s) => s.waitedOn), callbacks: run[0].callback, sumMs: sum(waits), longestMs: Math.max(...waits) })
    }
  }
  for (const step of steps) {
    if (!step.serial) {
      close()
      run = []
    }
    run.push(step)
  }
  close()
  return runs
}

/**
 * What `limit` workers take to go through `durations` in order, each taking
 * the next as soon as it is free.
 * @param {number[]} durations @param {number} limit
 */
export function limitedTime (durations, limit) {
  const free = new Array(Math.min(limit, durations.length)).fill(0)
  for (const d of durations) {
    let first = 0
    for (let i = 1; i < free.length; i++) if (free[i] < free[first]) first = i
    free[first] += d
  }
  return Math.max(0, ...free)
}

/**
 * @param {RequestGraph} graph
 * @returns {FanOut[]}
 */
export function findFanOuts (graph) {
  /** @type {Map<string, import('./data.js').AsyncOp[]>} */
  const groups = new Map()
  for (const op of graph.request.ops) {
    if (op.site < 0 || !graph.isWork(op)) continue
    const key = `${graph.placeOf(op.site)}\n${op.exec}`
    const list = groups.get(key)
    if (list) list.push(op)
    else groups.set(key, [op])
  }
  /** @type {FanOut[]} */
  const fanOuts = []
  for (const ops of groups.values()) {
    if (ops.length < FAN_OUT_MIN) continue
    const settled = ops.filter((op) => graph.settled(op) >= 0)
    if (settled.length < ops.length * 0.75) continue
    const waits = settled.map((op) => graph.settled(op) - op.created)
    const quarter = Math.max(1, Math.floor(waits.length / 4))
    const first = sum(waits.slice(0, quarter)) / quarter
    const last = sum(waits.slice(-quarter)) / quarter
    // Side by side, they would settle together; in a queue, each waits for those before it.
    if (last - first < Math.max(1, first / 2)) continue
    // And a queue serves them in waves: most settling at once, with a few late, is a pause of the
    // process (a busy machine), not a service that takes so many at a time.
    const atOnce = firstWave(settled.map((op) => graph.settled(op)))
    if (atOnce > settled.length * MOST_AT_ONCE) continue
    const serviceMs = Math.min(...waits)
    const awaitedAt = commonAwaiter(graph, ops)
    fanOuts.push({
      site: ops[0].site,
      awaitedAt,
      place: graph.placeOf(awaitedAt >= 0 ? awaitedAt : ops[0].site),
      type: ops[0].type,
      count: ops.length,
      waits,
      serviceMs,
      atOnce,
      spanMs: Math.max(...settled.map((op) => graph.settled(op))) - ops[0].created,
      waitedOn: graph.waitedOn(ops[0])
    })
  }
  return fanOuts
}

/**
 * How many settled in the first wave: the run of settlements that came closer
 * together than they did on average.
 * @param {number[]} times when each settled
 */
function firstWave (times) {
  const sorted = [...times].sort((a, b) => a - b)
  const spacing = (sorted[sorted.length - 1] - sorted[0]) / (sorted.length - 1)
  let n = 1
  while (n < sorted.length && sorted[n] - sorted[n - 1] <= spacing) n++
  return n
}

/**
 * The site of the await (or Promise.all) that waited on all of `ops`, if one did.
 * @param {RequestGraph} graph @param {import('./data.js').AsyncOp[]} ops
 */
function commonAwaiter (graph, ops) {
  const ids = new Set(ops.map((op) => op.id))
  /** @type {Map<string, number>} */
  const places = new Map()
  for (const op of graph.request.ops) {
    if (ids.has(op.trigger) && graph.isAwait(op)) places.set(graph.placeOf(op.site), op.site)
  }
  return places.size === 1 ? /** @type {number} */ ([...places.values()][0]) : -1
}
