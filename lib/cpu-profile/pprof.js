import { gzipSync } from 'node:zlib'
import { Function as PprofFunction, Line, Location, Profile, Sample, StringTable, ValueType } from 'pprof-format'

/** @typedef {import('./flame-data.js').FlameData} FlameData */
/** @typedef {import('./build-flame-data.js').NodeDetail} NodeDetail */

/**
 * The profile in pprof's format, gzipped, as Pyroscope, Grafana and
 * `go tool pprof` read it: one sample per distinct stack and source line at
 * its top, with its sample count and the CPU time those samples measured.
 * A frame's own samples sit on the lines V8 sampled (so `pprof -list` and
 * line views show where the time went); the frames below them, whose call
 * lines the profile does not record, on their function's first line.
 * @param {FlameData} data
 * @param {NodeDetail} detail
 * @returns {Buffer}
 */
export function toPprof (data, detail) {
  const strings = new StringTable()
  const { frames, nodes } = data
  /** @type {PprofFunction[]} */
  const functions = []
  /** @type {Int32Array} function id by frame, 0 until needed */
  const functionIds = new Int32Array(frames.name.length)
  const functionOf = (/** @type {number} */ frame) => {
    if (functionIds[frame] === 0) {
      const name = strings.dedup(data.strings[frames.name[frame]])
      const id = functions.length + 1
      functions.push(new PprofFunction({
        id,
        name,
        systemName: name,
        filename: strings.dedup(frames.file[frame] >= 0 ? data.strings[frames.file[frame]] : ''),
        startLine: frames.line[frame]
      }))
      functionIds[frame] = id
    }
    return functionIds[frame]
  }
  /** @type {Location[]} */
  const locations = []
  const newLocation = (/** @type {number} */ frame, /** @type {number} */ line) => {
    locations.push(new Location({ id: locations.length + 1, line: [new Line({ functionId: functionOf(frame), line })] }))
    return locations.length
  }
  /** location id of each frame on its function's first line, where callers are shown */
  const firstLine = new Int32Array(frames.name.length)
  const atFirstLine = (/** @type {number} */ frame) => firstLine[frame] || (firstLine[frame] = newLocation(frame, frames.line[frame]))
  /** @type {Map<number, number>} location id by frame * 2^32 + line, for the other lines */
  const otherLines = new Map()
  const atLine = (/** @type {number} */ frame, /** @type {number} */ line) => {
    if (line === frames.line[frame]) return atFirstLine(frame)
    const key = frame * 4294967296 + line
    let id = otherLines.get(key)
    if (id === undefined) otherLines.set(key, (id = newLocation(frame, line)))
    return id
  }

  /** @type {Sample[]} */
  const samples = []
  for (let i = 1; i < nodes.self.length; i++) {
    const self = nodes.self[i]
    if (self <= 0) continue
    /** the stack, top first: [0] is set per line, the callers follow */
    const stack = [0]
    for (let n = nodes.parent[i]; n > 0; n = nodes.parent[n]) stack.push(atFirstLine(nodes.frame[n]))
    const frame = nodes.frame[i]
    const nsPerSample = (detail.selfUs[i] * 1000) / self
    const lines = linesOf(self, detail.lines.get(i), frames.line[frame])
    for (let l = 0; l < lines.length; l++) {
      const [line, count] = lines[l]
      const locationId = l === lines.length - 1 ? stack : stack.slice()
      locationId[0] = atLine(frame, line)
      samples.push(new Sample({ locationId, value: [count, Math.round(count * nsPerSample)] }))
    }
  }
  const intervalNs = data.meta.intervalUs * 1000
  const profile = new Profile({
    sampleType: [
      new ValueType({ type: strings.dedup('samples'), unit: strings.dedup('count') }),
      new ValueType({ type: strings.dedup('cpu'), unit: strings.dedup('nanoseconds') })
    ],
    sample: samples,
    location: locations,
    function: functions,
    stringTable: strings,
    timeNanos: BigInt(Date.parse(data.meta.startedAt) || 0) * 1_000_000n,
    durationNanos: Math.round(data.meta.durationMs * 1e6),
    periodType: new ValueType({ type: strings.dedup('cpu'), unit: strings.dedup('nanoseconds') }),
    period: intervalNs
  })
  return gzipSync(profile.encode())
}

/**
 * A node's samples over the lines V8 placed them on; what no line holds
 * stays on `fallback`. Should the lines hold more than the node's samples,
 * they are scaled down to whole samples (largest remainders).
 * @param {number} samples
 * @param {Map<number, number> | undefined} lines line -> samples
 * @param {number} fallback the function's first line
 * @returns {[number, number][]} line, samples
 */
export function linesOf (samples, lines, fallback) {
  if (!lines || lines.size === 0) return [[fallback, samples]]
  let placed = 0
  for (const ticks of lines.values()) placed += ticks
  if (placed <= samples) {
    const out = new Map(lines)
    if (placed < samples) out.set(fallback, (out.get(fallback) ?? 0) + samples - placed)
    return [...out]
  }
  const shares = [...lines].map(([line, ticks]) => {
    const exact = (ticks * samples) / placed
    return { line, exact, count: Math.floor(exact) }
  })
  let left = samples - shares.reduce((sum, s) => sum + s.count, 0)
  shares.sort((a, b) => (b.exact - b.count) - (a.exact - a.count))
  for (let i = 0; left > 0; i++, left--) shares[i].count++
  return shares.filter((s) => s.count > 0).map((s) => [s.line, s.count])
}
