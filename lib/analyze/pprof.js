import { gzipSync } from 'node:zlib'
import { Function as PprofFunction, Line, Location, Profile, Sample, StringTable, ValueType } from 'pprof-format'

/** @typedef {import('./flame-data.js').FlameData} FlameData */

/**
 * The profile in pprof's format, gzipped, as Pyroscope, Grafana and
 * `go tool pprof` read it: one sample per distinct stack, with its sample
 * count and CPU time, one location and function per frame.
 * @param {FlameData} data
 * @returns {Buffer}
 */
export function toPprof (data) {
  const strings = new StringTable()
  const { frames, nodes } = data
  const functions = frames.name.map((name, i) => new PprofFunction({
    id: i + 1,
    name: strings.dedup(data.strings[name]),
    systemName: strings.dedup(data.strings[name]),
    filename: strings.dedup(frames.file[i] >= 0 ? data.strings[frames.file[i]] : ''),
    startLine: frames.line[i]
  }))
  const locations = functions.map((fn, i) => new Location({
    id: i + 1,
    line: [new Line({ functionId: fn.id, line: frames.line[i] })]
  }))
  const intervalNs = data.meta.intervalUs * 1000
  /** @type {Sample[]} */
  const samples = []
  for (let i = 1; i < nodes.self.length; i++) {
    if (nodes.self[i] === 0) continue
    /** @type {number[]} */
    const stack = []
    for (let n = i; n > 0; n = nodes.parent[n]) stack.push(nodes.frame[n] + 1)
    samples.push(new Sample({ locationId: stack, value: [nodes.self[i], nodes.self[i] * intervalNs] }))
  }
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
