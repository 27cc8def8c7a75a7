/**
 * Synthetic FlameData of any size with the shapes real server profiles have:
 * deep stacks, recursion, many distinct frames across app / node_modules /
 * Node core / native code, GC and (program) at the root, every tier, calls
 * inlined into optimized callers, and the app's sources with per-line samples.
 * Deterministic for a given seed.
 */
import { FlameDataBuilder } from './flame-builder.js'
import { seededRandom } from './random.js'

/** @typedef {'app' | 'deps' | 'core' | 'native'} Kind */

const VERBS = ['parse', 'read', 'write', 'handle', 'format', 'render', 'encode', 'decode', 'validate', 'compile', 'match', 'resolve', 'emit', 'flush', 'hash', 'merge', 'walk', 'build', 'serialize', 'dispatch']
const NOUNS = ['Header', 'Body', 'Route', 'Query', 'Token', 'Buffer', 'Chunk', 'Schema', 'Template', 'Node', 'Row', 'Cookie', 'Session', 'Stream', 'Record', 'Field', 'Path', 'Entry', 'Value', 'Frame']
const PACKAGES = ['fastify', 'express', 'pino', 'undici', 'ajv', 'lodash', 'handlebars', 'mongodb', 'ioredis', 'zod', 'luxon', 'yaml', 'semver', 'debug', 'qs']
const CORE = ['node:internal/streams/writable', 'node:internal/http', 'node:_http_server', 'node:_http_outgoing', 'node:events', 'node:internal/timers', 'node:internal/process/task_queues', 'node:buffer', 'node:net', 'node:zlib']
const NATIVE = ['JSON.parse', 'JSON.stringify', 'RegExp.prototype.exec', 'Array.prototype.sort', 'String.prototype.replace', 'writev', 'crypto.createHash', 'Builtins_StringAdd', 'Builtins_ArrayMap', 'Builtins_CallFunction']
const CALLEES = /** @type {Record<Kind, [Kind, number][]>} */ ({
  app: [['app', 0.45], ['deps', 0.3], ['core', 0.15], ['native', 0.1]],
  deps: [['deps', 0.55], ['core', 0.25], ['native', 0.2]],
  core: [['core', 0.6], ['native', 0.4]],
  native: [['native', 0.4], ['app', 0.3], ['deps', 0.3]] // builtins call back into JS (map, sort, replace)
})

/**
 * @param {{ samples?: number, frames?: number, seed?: number, maxDepth?: number, tiersKnown?: boolean }} [options]
 */
export function makeFlameData (options = {}) {
  const { samples = 20_000, frames = 2_000, seed = 42, maxDepth = 80, tiersKnown = true } = options
  const rand = seededRandom(seed).uniform
  const pick = (/** @type {any[]} */ list) => list[Math.floor(rand() * list.length)]
  const builder = new FlameDataBuilder()

  /** @type {Record<Kind, number[]>} */
  const pools = { app: [], deps: [], core: [], native: [] }
  /** @type {Map<number, { kind: Kind, recursive: boolean, callees: number[], file: string, line: number }>} */
  const info = new Map()
  /** @type {Map<string, { name: string, line: number }[]>} */
  const appFiles = new Map()
  const tiers = /** @type {const} */ (['interpreted', 'baseline', 'maglev', 'turbofan', 'turbofan'])

  /** @param {Kind} kind @param {number} i */
  function addFrame (kind, i) {
    const base = `${pick(VERBS)}${pick(NOUNS)}`
    const name = kind === 'native' ? `${pick(NATIVE)}${i > 40 ? `$${i}` : ''}` : rand() < 0.06 ? '(anonymous)' : rand() < 0.3 ? `${pick(NOUNS)}.${base}` : `${base}${i}`
    let file = ''
    if (kind === 'app') file = `/srv/shop/src/${VERBS[Math.floor(i / 12) % VERBS.length]}/${NOUNS[Math.floor(i / 240) % NOUNS.length].toLowerCase()}-${Math.floor(i / 12)}.js`
    if (kind === 'deps') file = `/srv/shop/node_modules/${pick(PACKAGES)}/lib/${pick(NOUNS).toLowerCase()}.js`
    if (kind === 'core') file = pick(CORE)
    const functionsInFile = file ? (appFiles.get(file) ?? []) : []
    const line = kind === 'native' ? 0 : kind === 'app' ? 1 + functionsInFile.length * 8 : 1 + Math.floor(rand() * 900)
    if (kind === 'app') appFiles.set(file, [...functionsInFile, { name, line }])
    const frame = builder.frame({
      name,
      file: file || undefined,
      line,
      column: line ? 1 + Math.floor(rand() * 30) : 0,
      category: kind,
      tier: kind === 'native' || !tiersKnown ? 'unknown' : pick([...tiers])
    })
    pools[kind].push(frame)
    info.set(frame, { kind, recursive: kind === 'app' && rand() < 0.05, callees: [], file, line })
  }

  const shares = /** @type {[Kind, number][]} */ ([['app', 0.25], ['deps', 0.4], ['core', 0.2], ['native', 0.15]])
  for (const [kind, share] of shares) {
    for (let i = 0; i < Math.max(4, Math.round(frames * share)); i++) addFrame(kind, i)
  }
  for (const [frame, entry] of info) {
    const count = entry.kind === 'native' ? 1 + Math.floor(rand() * 4) : 3 + Math.floor(rand() * 8)
    for (let i = 0; i < count; i++) {
      let r = rand()
      const kind = CALLEES[entry.kind].find(([, share]) => (r -= share) < 0)?.[0] ?? entry.kind
      entry.callees.push(pick(pools[kind]))
    }
    if (entry.recursive) entry.callees.push(frame, frame)
  }
  const gc = builder.frame({ name: '(garbage collector)', category: 'gc' })
  const program = builder.frame({ name: '(program)', category: 'program' })
  const entries = CORE.slice(0, 4).map((file, i) => builder.frame({ name: ['processTicksAndRejections', 'listOnTimeout', 'emit', 'onStreamRead'][i], file, line: 10 + i, column: 3, category: 'core', tier: tiersKnown ? 'turbofan' : 'unknown' }))
  for (const entry of entries) info.set(entry, { kind: 'core', recursive: false, callees: pools.app.slice(0, 12), file: '', line: 0 })

  /** @type {Map<string, Record<string, number>>} */
  const lineSamples = new Map()
  const tierOf = builder.frames.tier

  /** @param {number} parent @param {number} frame @param {number} total @param {number} depth @param {boolean} inlined */
  function grow (parent, frame, total, depth, inlined) {
    const entry = info.get(frame)
    const id = builder.node(parent, frame, 0, inlined)
    const callees = entry ? [...new Set(entry.callees)] : []
    let self = total
    if (depth < maxDepth && total > 1 && callees.length && entry) {
      const hotLeaf = rand() < 0.005
      const share = hotLeaf ? 1 : entry.kind === 'native' ? 0.3 * rand() : 0.12 * rand() ** 4
      self = Math.round(total * share)
    }
    builder.nodes.self[id] = self
    if (self && entry?.kind === 'app') {
      const lines = lineSamples.get(entry.file) ?? {}
      const line = entry.line + 1 + Math.floor(rand() * 5)
      lines[line] = (lines[line] ?? 0) + self
      lineSamples.set(entry.file, lines)
    }
    let rest = total - self
    if (!rest) return
    // Framework layers near the root are long chains; deeper code fans out.
    const k = Math.min(callees.length, rest, rand() < (depth < 12 ? 0.8 : 0.3) ? 1 : 2 + Math.floor(rand() * callees.length))
    const chosen = []
    for (let i = 0; i < k; i++) chosen.push(callees.splice(Math.floor(rand() * callees.length), 1)[0])
    const weights = chosen.map(() => rand() ** 2 + 0.02)
    let weightLeft = weights.reduce((a, b) => a + b, 0)
    for (let i = 0; i < chosen.length && rest > 0; i++) {
      const share = i === chosen.length - 1 ? rest : Math.round(rest * weights[i] / weightLeft)
      weightLeft -= weights[i]
      rest -= share
      const child = chosen[i]
      const childInlined = info.get(child)?.kind !== 'native' && tierOf[frame] >= 3 && rand() < 0.25
      if (share > 0) grow(id, child, share, depth + 1, childInlined)
    }
  }

  const gcSamples = Math.round(samples * 0.03)
  const programSamples = Math.round(samples * 0.02)
  let left = samples - gcSamples - programSamples
  entries.forEach((entry, i) => {
    const share = i === entries.length - 1 ? left : Math.round(left * [0.5, 0.2, 0.2][i])
    left -= share
    grow(0, entry, share, 1, false)
  })
  builder.node(0, gc, gcSamples)
  builder.node(0, program, programSamples)

  for (const [file, functions] of appFiles) {
    const text = functions.flatMap(({ name }, i) => [
      `function ${name.replace(/\W/g, '_')} (input) {`,
      `  const value${i} = input.${name.length % 2 ? 'map' : 'filter'}((x) => x + ${i})`,
      `  if (value${i}.length > ${i}) return helper(value${i})`,
      `  for (const item of value${i}) total += item.size * ${i % 7}`,
      `  return JSON.stringify(value${i}) // "${file}" <tag>`,
      '  // end',
      '}',
      ''
    ]).join('\n')
    builder.source(file, text, lineSamples.get(file) ?? {})
  }
  return builder.finish({ title: 'node --import ./otel.js src/server.js', durationMs: samples, tiersKnown })
}
