import assert from 'node:assert/strict'
import { test } from 'node:test'
import { gunzipSync } from 'node:zlib'
import { Profile } from 'pprof-format'
import { buildFlameData } from '../../lib/cpu-profile/build-flame-data.js'
import { sampleDurations } from '../../lib/cpu-profile/profile-samples.js'
import { linesOf, toPprof } from '../../lib/cpu-profile/pprof.js'

const URL = 'file:///app/server.js'
/** @param {string} functionName @param {string} url @param {number} lineNumber 0-based */
const frame = (functionName, url = '', lineNumber = -1) => ({ functionName, scriptId: url ? '3' : '0', url, lineNumber, columnNumber: url ? 9 : -1 })

/**
 * root -> handler (line 20) -> computePrimes (line 5): 4 samples on line 10,
 * 2 on line 9; handler 1 on line 21. Samples 1 ms apart, but two of
 * computePrimes's are followed by 5 ms gaps (a busy machine delayed the sampler).
 */
const profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2] },
    { id: 2, callFrame: frame('handler', URL, 19), children: [3], positionTicks: [{ line: 21, ticks: 1 }] },
    { id: 3, callFrame: frame('computePrimes', URL, 4), positionTicks: [{ line: 10, ticks: 4 }, { line: 9, ticks: 2 }] }
  ],
  startTime: 0,
  endTime: 18_000,
  samples: [3, 3, 3, 3, 3, 3, 2],
  timeDeltas: [1000, 1000, 1000, 5000, 1000, 5000, 1000]
}

/** Decoded pprof: per function name, line -> [samples, cpu ns] of the samples on top of the stack. */
function decodeTop (/** @type {Buffer} */ gz) {
  const p = Profile.decode(gunzipSync(gz))
  const str = (/** @type {number | bigint} */ i) => p.stringTable.strings[Number(i)]
  const fnName = new Map(p.function.map((f) => [Number(f.id), str(f.name)]))
  const where = new Map(p.location.map((l) => [Number(l.id), { name: fnName.get(Number(l.line[0].functionId)), line: Number(l.line[0].line) }]))
  /** @type {Record<string, Record<number, [number, number]>>} */
  const top = {}
  for (const s of p.sample) {
    const { name, line } = /** @type {{ name: string, line: number }} */ (where.get(Number(s.locationId[0])))
    const callers = s.locationId.slice(1).map((id) => where.get(Number(id)))
    if (name === 'computePrimes') assert.deepEqual(callers, [{ name: 'handler', line: 20 }], 'a caller sits on its function\'s first line')
    top[name] ??= {}
    const [count, ns] = top[name][line] ?? [0, 0]
    top[name][line] = [count + Number(s.value[0]), ns + Number(s.value[1])]
  }
  return { top, p, str }
}

test('pprof puts each sample on the line V8 sampled, weighted by its own measured interval', () => {
  const { data, detail } = buildFlameData(profile, { title: 't', cwd: '/app' })
  const { top, p, str } = decodeTop(toPprof(data, detail))
  assert.deepEqual(p.sampleType.map((t) => `${str(t.type)}/${str(t.unit)}`), ['samples/count', 'cpu/nanoseconds'])
  // Each sample lasts until the next one; the last until the profile's end.
  assert.deepEqual([...sampleDurations(profile)], [1000, 1000, 5000, 1000, 5000, 1000, 3000])
  // computePrimes's 6 samples measured 14 ms, spread over its lines by their samples.
  assert.deepEqual(top.computePrimes, { 10: [4, 9_333_333], 9: [2, 4_666_667] })
  assert.deepEqual(top.handler, { 21: [1, 3_000_000] })
})

test('without sample times, each sample gets the mean interval', () => {
  const { samples, timeDeltas, ...hitCounts } = profile
  const counted = {
    ...hitCounts,
    nodes: profile.nodes.map((n) => ({ ...n, hitCount: n.id === 3 ? 6 : n.id === 2 ? 1 : 0 }))
  }
  const { data, detail } = buildFlameData(counted, { title: 't', cwd: '/app' })
  const { top } = decodeTop(toPprof(data, detail))
  assert.deepEqual(top.computePrimes, { 10: [4, 10_285_714], 9: [2, 5_142_857] })
})

test('a node\'s samples over its lines: the rest on the first line, an excess scaled down', () => {
  assert.deepEqual(linesOf(5, undefined, 3), [[3, 5]])
  assert.deepEqual(linesOf(5, new Map([[7, 2], [8, 1]]), 3), [[7, 2], [8, 1], [3, 2]])
  assert.deepEqual(linesOf(3, new Map([[7, 3], [8, 3]]), 3), [[7, 2], [8, 1]])
  const scaled = linesOf(4, new Map([[7, 5], [8, 2], [9, 1]]), 3)
  assert.equal(scaled.reduce((sum, [, n]) => sum + n, 0), 4)
  assert.deepEqual(new Map(scaled).get(7), 3)
})
