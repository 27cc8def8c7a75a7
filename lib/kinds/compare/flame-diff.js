import { dirname, sep } from 'node:path'
import { agentCodeTest } from '../../cpu-profile/agent-code.js'
import { buildFlameData } from '../../cpu-profile/build-flame-data.js'
import { APP, UNIT, categorize, urlToPath } from '../../cpu-profile/categorize.js'
import { CATEGORIES } from '../../cpu-profile/flame-data.js'
import { sum } from '../../stats/describe.js'

/**
 * The CPU differential of two versions of a program under load: how much
 * CPU time each function took at the top of the stack per request answered,
 * before and after. Per request, since a fix changes the throughput: the
 * faster version answers more requests in the same time and so can take as
 * many samples as before while spending far less on each request.
 *
 * Each side is turned into FlameData as the flame report does (idle and
 * dyno's agent left out, (program) and GC kept, frames merged per function),
 * and its functions are known as the report shows them: name, file (relative
 * to that side's folder, since the two versions usually live in two
 * checkouts) and line and column.
 */

/** @typedef {import('../../cpu-profile/cpuprofile.js').CpuProfile} CpuProfile */
/** @typedef {import('../../cpu-profile/build-flame-data.js').ProfileUnit} ProfileUnit */
/** @typedef {import('../../cpu-profile/flame-data.js').FlameData} FlameData */

/**
 * One version's profile and the requests it answered while profiled.
 * @typedef {object} DiffSide
 * @property {CpuProfile | ProfileUnit[]} profile one process's profile, or one per process and thread (added up)
 * @property {number} requests requests answered while profiled; more than 0
 * @property {string} [cwd] the version's folder: its app files are named relative to it (by default, the
 *   deepest folder that holds all of them), so that the same file in two checkouts has one name
 * @property {Map<string, import('../../cpu-profile/inlined.js').ScriptExtents>} [scripts] to give inlined functions their samples (see build-flame-data.js)
 * @property {import('../../cpu-profile/source-maps.js').SourceMapper | null} [mapper] the version's source maps
 * @property {(path: string) => string | null} [readSource] the text of an app file, for the report's source panel
 */

/**
 * @typedef {object} DiffOptions
 * @property {string} [title]
 * @property {Partial<import('../../cpu-profile/flame-data.js').FlameMeta>} [meta] startedAt, node, v8, load of the after run, for the report
 */

/** @typedef {import('../../cpu-profile/flame-data.js').FunctionChange} FunctionChange */

/**
 * @typedef {object} FlameDiff
 * @property {1} schemaVersion
 * @property {FunctionChange[]} functions every function that ran on either side, biggest |change| first
 * @property {{ before: number, after: number, change: number }} total CPU time per request (idle left out), ms
 * @property {{ before: number, after: number }} requests as given
 */

/**
 * @param {{ before: DiffSide, after: DiffSide }} input
 * @param {DiffOptions} [options]
 * @returns {FlameDiff}
 */
export function diffProfiles (input, options = {}) {
  return compareSides(input, options).diff
}

/**
 * A side as FlameData, with each frame's identity and self time.
 * @typedef {object} SideFlame
 * @property {FlameData} data
 * @property {number[]} selfUs measured time of each node's own samples
 * @property {number} requests
 * @property {string[]} identity by frame: what makes it the same function on the other side
 */

/**
 * Both sides as FlameData, each frame given a function id shared by the
 * sides (`before.ids`, `after.ids`), and the differential per function.
 * @param {{ before: DiffSide, after: DiffSide }} input
 * @param {DiffOptions} options
 */
export function compareSides ({ before, after }, options) {
  const b = sideFlame(before, options, 'before')
  const a = sideFlame(after, options, 'after')
  const ids = functionIds(b.identity, a.identity)
  return { before: b, after: a, ids, diff: functionChanges(b, a, ids) }
}

/**
 * @param {DiffSide} side @param {DiffOptions} options @param {string} which
 * @returns {SideFlame}
 */
function sideFlame (side, options, which) {
  if (!(side.requests > 0)) throw new RangeError(`the ${which} side answered ${side.requests} requests: CPU per request needs at least one`)
  if (Array.isArray(side.profile) && side.profile.length === 0) throw new RangeError(`the ${which} side has no profile`)
  // A profile per process adds up under one frame, the same on both sides.
  const profiles = Array.isArray(side.profile) && side.profile.length > 1
    ? side.profile.map((unit) => ({ label: 'all processes', profile: unit.profile }))
    : Array.isArray(side.profile) ? side.profile[0].profile : side.profile
  const { data, detail } = buildFlameData(profiles, {
    title: options.title ?? 'CPU differential',
    cwd: side.cwd ?? appFolder(Array.isArray(profiles) ? profiles.map((u) => u.profile) : [profiles]),
    meta: options.meta ?? {},
    readSource: side.readSource,
    scripts: side.scripts,
    mapper: side.mapper ?? null
  })
  delete data.meta.units
  const { frames, strings } = data
  const identity = frames.name.map((name, f) => frames.category[f] === UNIT
    ? ''
    : `${strings[name]}\u0000${frames.file[f] >= 0 ? strings[frames.file[f]] : ''}\u0000${frames.line[f]}\u0000${frames.column[f]}`)
  return { data, selfUs: detail.selfUs, requests: side.requests, identity }
}

/**
 * A function id per frame of each side; the same function has the same id
 * on both. The same name, file, line and column is the same function; so is
 * one that only moved within its file (lines added above it), when it is the
 * only function of its name in that file on each side that found no match.
 * A frame with no identity (a process) gets -1.
 * @param {string[]} before identities by frame @param {string[]} after
 * @returns {{ before: Int32Array, after: Int32Array, count: number }}
 */
function functionIds (before, after) {
  /** @type {Map<string, number>} */
  const byIdentity = new Map()
  const ids = { before: new Int32Array(before.length).fill(-1), after: new Int32Array(after.length).fill(-1), count: 0 }
  after.forEach((identity, f) => {
    if (!identity) return
    let id = byIdentity.get(identity)
    if (id === undefined) byIdentity.set(identity, (id = ids.count++))
    ids.after[f] = id
  })
  const matched = new Set()
  before.forEach((identity, f) => {
    const id = byIdentity.get(identity)
    if (id !== undefined) {
      ids.before[f] = id
      matched.add(id)
    }
  })
  // Moved functions: name and file alone, where that names one function on each side.
  const movable = (/** @type {string} */ identity) => identity !== '' && !identity.startsWith('(anonymous)\u0000') && identity.split('\u0000')[1] !== ''
  const nameAndFile = (/** @type {string} */ identity) => identity.split('\u0000', 2).join('\u0000')
  /** @type {Map<string, number[]>} */
  const afterLeft = new Map()
  for (const [identity, id] of byIdentity) {
    if (matched.has(id) || !movable(identity)) continue
    const key = nameAndFile(identity)
    afterLeft.set(key, [...(afterLeft.get(key) ?? []), id])
  }
  /** @type {Map<string, Set<string>>} */
  const beforeLeft = new Map()
  before.forEach((identity, f) => {
    if (ids.before[f] >= 0 || !movable(identity)) return
    const key = nameAndFile(identity)
    beforeLeft.set(key, (beforeLeft.get(key) ?? new Set()).add(identity))
  })
  /** @type {Map<string, number>} */
  const fresh = new Map()
  before.forEach((identity, f) => {
    if (ids.before[f] >= 0 || !identity) return
    const key = nameAndFile(identity)
    const candidates = afterLeft.get(key)
    if (movable(identity) && candidates?.length === 1 && beforeLeft.get(key)?.size === 1) {
      ids.before[f] = candidates[0]
      return
    }
    let id = fresh.get(identity)
    if (id === undefined) fresh.set(identity, (id = ids.count++))
    ids.before[f] = id
  })
  return ids
}

/**
 * @param {SideFlame} before @param {SideFlame} after
 * @param {{ before: Int32Array, after: Int32Array, count: number }} ids
 * @returns {FlameDiff}
 */
function functionChanges (before, after, ids) {
  const msBefore = selfPerRequest(before, ids.before, ids.count)
  const msAfter = selfPerRequest(after, ids.after, ids.count)
  /** @type {(FunctionChange | undefined)[]} */
  const described = new Array(ids.count)
  // After's name and place first: that is the code as it is now.
  for (const [side, sideIds] of /** @type {const} */ ([[after, ids.after], [before, ids.before]])) {
    sideIds.forEach((id, f) => {
      if (id < 0 || described[id]) return
      described[id] = { ...describe(side.data, f), before: msBefore[id], after: msAfter[id], change: msAfter[id] - msBefore[id] }
    })
  }
  const functions = /** @type {FunctionChange[]} */ (described.filter((c) => c && (c.before > 0 || c.after > 0)))
  functions.sort((x, y) => Math.abs(y.change) - Math.abs(x.change) || y.after - x.after || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
  const total = { before: sum(msBefore), after: sum(msAfter), change: 0 }
  total.change = total.after - total.before
  return { schemaVersion: 1, functions, total, requests: { before: before.requests, after: after.requests } }
}

/**
 * Self time per request of each function id, ms.
 * @param {SideFlame} side @param {Int32Array} frameIds @param {number} count
 */
function selfPerRequest (side, frameIds, count) {
  const ms = new Float64Array(count)
  const { frame } = side.data.nodes
  for (let i = 1; i < frame.length; i++) {
    const id = frameIds[frame[i]]
    if (id >= 0) ms[id] += side.selfUs[i] / 1000 / side.requests
  }
  return ms
}

/** @param {FlameData} data @param {number} f */
function describe ({ frames, strings }, f) {
  return {
    name: strings[frames.name[f]],
    location: frames.file[f] >= 0 ? `${strings[frames.file[f]]}:${frames.line[f]}` : '',
    category: CATEGORIES[frames.category[f]]
  }
}

/**
 * The deepest folder that holds every app file the profiles ran (not dyno's
 * agent), '/' when there is none.
 * @param {CpuProfile[]} profiles
 */
function appFolder (profiles) {
  const isAgentCode = agentCodeTest()
  const seen = new Set()
  /** @type {string[] | null} */
  let common = null
  for (const { nodes } of profiles) {
    for (const { callFrame } of nodes) {
      if (seen.has(callFrame.url)) continue
      seen.add(callFrame.url)
      if (categorize(callFrame) !== APP || isAgentCode(callFrame.url)) continue
      const path = urlToPath(callFrame.url)
      if (path === null) continue
      const parts = dirname(path).split(sep)
      if (common === null) common = parts
      let same = 0
      while (same < common.length && same < parts.length && common[same] === parts[same]) same++
      common.length = same
    }
  }
  return common && common.length > 1 ? common.join(sep) : sep
}
