/**
 * A CPU profile's samples, per node: how many each node took at the top of
 * the stack, and how long they lasted, measured from the sample times.
 */

/** @typedef {import('./cpuprofile.js').CpuProfile} CpuProfile */
/** @typedef {import('./cpuprofile.js').ProfileNode} ProfileNode */

/**
 * Where each node id sits in `nodes`. V8 numbers nodes 1, 2, 3…, so a typed
 * array indexed by id finds them fast over hundreds of thousands of
 * samples; odd ids get a map.
 * @param {ProfileNode[]} nodes
 * @returns {(id: number) => number} the index, -1 for an id no node has
 */
export function nodeIndex (nodes) {
  let maxId = 0
  let dense = true
  for (const n of nodes) {
    if (!Number.isInteger(n.id) || n.id < 0) dense = false
    else if (n.id > maxId) maxId = n.id
  }
  if (dense && maxId <= 4 * nodes.length + 1024) {
    const table = new Int32Array(maxId + 1).fill(-1)
    for (let i = 0; i < nodes.length; i++) table[nodes[i].id] = i
    return (id) => table[id] ?? -1
  }
  const map = new Map(nodes.map((n, i) => [n.id, i]))
  return (id) => map.get(id) ?? -1
}

/**
 * How long each sample stands for: from its time to the next sample's, as
 * DevTools counts it; the last one until the profile's end. A profile
 * without sample times gets the mean interval for each.
 * @param {CpuProfile} profile
 * @returns {Float64Array} µs, by sample
 */
export function sampleDurations (profile) {
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  const count = samples.length
  const mean = count > 0 ? Math.max(0, profile.endTime - profile.startTime) / count : 0
  const durations = new Float64Array(count)
  if (count === 0) return durations
  if (deltas.length !== count) return durations.fill(mean)
  let time = profile.startTime + deltas[0]
  for (let i = 0; i < count - 1; i++) {
    durations[i] = Math.max(0, deltas[i + 1])
    time += deltas[i + 1]
  }
  const rest = profile.endTime - time
  durations[count - 1] = rest > 0 ? rest : mean
  return durations
}

/**
 * Samples and their time per node, by index in `profile.nodes`. A profile
 * without a samples list (hit counts only) spreads its duration evenly.
 * @param {CpuProfile} profile
 * @param {(id: number) => number} indexOf from nodeIndex
 */
export function samplesPerNode (profile, indexOf) {
  const n = profile.nodes.length
  const count = new Float64Array(n)
  const timeUs = new Float64Array(n)
  const samples = profile.samples ?? []
  if (samples.length > 0) {
    const durations = sampleDurations(profile)
    for (let i = 0; i < samples.length; i++) {
      const at = indexOf(samples[i])
      if (at < 0) continue
      count[at]++
      timeUs[at] += durations[i]
    }
    return { count, timeUs }
  }
  let hits = 0
  for (let i = 0; i < n; i++) hits += (count[i] = profile.nodes[i].hitCount ?? 0)
  const mean = hits > 0 ? Math.max(0, profile.endTime - profile.startTime) / hits : 0
  for (let i = 0; i < n; i++) timeUs[i] = count[i] * mean
  return { count, timeUs }
}
