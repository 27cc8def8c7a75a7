/**
 * Which classes grow beyond noise, and the leaks they make, one per
 * holder: classes held the same way (the listener closures, their contexts
 * and the objects those keep) are one leak, named after the class a
 * developer wrote, if one of them is.
 *
 * @typedef {object} Leak
 * @property {string} constructor the class the leak is named after
 * @property {number} countDelta objects of it added between the first and the last snapshot
 * @property {number} sizeDelta their self size
 * @property {number} retainedDelta how much more the class retains
 * @property {string} holder what holds them, e.g. "`bus` listeners for 'config-changed'"
 * @property {string | null} location file:line of the holder
 * @property {number} held how many of the objects that grew are held this way
 * @property {import('./describe-path.js').PathStep[]} path root first
 * @property {{ name: string, countDelta: number, retainedDelta: number }[]} alsoGrowing other classes held the same way
 */

/** Fewer new objects than this, over a round of load (or between two snapshots), is noise. */
export const NOISE_OBJECTS = 100

/** Classes of V8's own making: code, maps, feedback. The app does not hold them itself. */
const RUNTIME = /^\((compiled code|system|object shape|synthetic|hidden)\)$|^system \//

/**
 * Holders inside Node that keep a bounded number of entries: growth into
 * them stops at their bound, however long the app runs. Node keeps the
 * timing of the last 250 fetches (performance.setResourceTimingBufferSize);
 * a slow run fills that buffer over several rounds.
 */
const BOUNDED_HOLDERS = [/^node:internal\/perf\//]

/** With two snapshots only, a class must also grow by this share of what it had (code loaded between them adds some of everything). */
export const NOISE_SHARE = 0.05

/**
 * Classes that grew in every interval between snapshots, by at least
 * NOISE_OBJECTS each time: a one-off warm-up (caches filled, code compiled
 * during the first round) stops growing in the next. Two snapshots have one
 * interval, which cannot tell warm-up from growth: there a class must also
 * grow by NOISE_SHARE of its count.
 * @param {import('./compare.js').ComparisonRow[]} rows
 * @param {Map<string, number[]>} countsByClass each class's count in every snapshot
 * @returns {string[]} class names, largest size growth first
 */
export function growingClasses (rows, countsByClass) {
  return rows.filter((row) => {
    if (RUNTIME.test(row.name) || row.countDelta < NOISE_OBJECTS) return false
    const counts = countsByClass.get(row.name) ?? []
    for (let i = 1; i < counts.length; i++) if (counts[i] - counts[i - 1] < NOISE_OBJECTS) return false
    return counts.length > 2 || row.countDelta >= NOISE_SHARE * row.countBefore
  }).map((row) => row.name)
}

/**
 * @param {import('./compare.js').ComparisonRow[]} rows
 * @param {import('./snapshot/retainers.js').ClassRetainers[]} retainers of the growing classes
 * @returns {Leak[]} largest first
 */
export function namedLeaks (rows, retainers) {
  const rowOf = new Map(rows.map((r) => [r.name, r]))
  /** @type {Map<string, { classes: import('./snapshot/retainers.js').ClassRetainers[] }>} */
  const byHolder = new Map()
  for (const r of retainers) {
    const path = r.paths[0]
    if (!path || BOUNDED_HOLDERS.some((bounded) => bounded.test(path.holder.location ?? ''))) continue
    const key = `${path.holder.text}\u0000${path.holder.location}`
    const group = byHolder.get(key)
    if (group) group.classes.push(r)
    else byHolder.set(key, { classes: [r] })
  }
  /** @type {Leak[]} */
  const leaks = []
  for (const { classes } of byHolder.values()) {
    const ranked = classes.slice().sort((a, b) => rank(a.name) - rank(b.name) || (rowOf.get(b.name)?.retainedDelta ?? 0) - (rowOf.get(a.name)?.retainedDelta ?? 0))
    const main = ranked[0]
    const row = /** @type {import('./compare.js').ComparisonRow} */ (rowOf.get(main.name))
    const path = main.paths[0]
    leaks.push({
      constructor: main.name,
      countDelta: row.countDelta,
      sizeDelta: row.sizeDelta,
      retainedDelta: row.retainedDelta,
      holder: path.holder.text,
      location: path.holder.location,
      held: path.count,
      path: path.steps,
      alsoGrowing: ranked.slice(1).map((r) => ({ name: r.name, countDelta: rowOf.get(r.name)?.countDelta ?? 0, retainedDelta: rowOf.get(r.name)?.retainedDelta ?? 0 }))
    })
  }
  return leaks.sort((a, b) => b.retainedDelta - a.retainedDelta || b.countDelta - a.countDelta)
}

/**
 * Which class names a leak best: one the app defined, then the built-in
 * kinds of object, then what V8 makes of values (strings, closures, arrays).
 * @param {string} name
 */
function rank (name) {
  if (name.startsWith('(')) return name === '(closure)' ? 3 : name === '(string)' || name === '(concatenated string)' ? 2 : 4
  if (['Object', 'Array', 'Map', 'Set', 'Promise', 'Error'].includes(name)) return 1
  return 0
}
