import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { createOptimizationStatusReader } from '../../lib/v8/optimization-status.js'

const READER = fileURLToPath(new URL('../../lib/v8/optimization-status.js', import.meta.url))

test('the reader learns distinct bits for each tier on this Node line', () => {
  const read = createOptimizationStatusReader()
  const { bits } = read
  assert.ok(bits.interpreted && bits.baseline && bits.turbofan && bits.lazy, JSON.stringify(bits))
  assert.equal(bits.interpreted & bits.turbofan, 0)
  assert.equal(bits.baseline & bits.turbofan, 0)
  // Maglev runs by default from Node 24 on; Node 20 and 22 ship it switched off.
  const major = Number(process.versions.node.split('.')[0])
  assert.equal(read.tiers.includes('maglev'), major >= 24, read.tiers.join(','))
})

test('hot code is optimized, code run once is interpreted, code never run is lazy', () => {
  const read = createOptimizationStatusReader()
  function hot (/** @type {number} */ x) { return x * 3 + 1 }
  function once (/** @type {number} */ x) { return x - 1 }
  function never () {}
  let sum = 0
  // TurboFan compiles on a background thread, which a busy machine may leave waiting: hot code is
  // run until it is optimized, for 30 s at most.
  const deadline = Date.now() + 30_000
  let status
  do {
    for (let i = 0; i < 1e6; i++) sum += hot(i)
    status = read(hot)
  } while (!status.optimized && Date.now() < deadline)
  once(sum)
  assert.equal(status.optimized, true, `hot was not optimized within 30 s: ${JSON.stringify(status)}`)
  assert.ok(status.tier === 'turbofan' || status.tier === 'maglev')
  assert.deepEqual(read(once), { tier: 'interpreted', optimized: false, markedForOptimization: false, raw: read(once).raw })
  assert.equal(read(never).tier, 'lazy')
  assert.throws(() => read(/** @type {any} */ (42)), TypeError)
})

test('natives syntax is off again after the reader is made, and the reader survives bytecode flushing', () => {
  const script = `
    import { createOptimizationStatusReader } from ${JSON.stringify(READER)}
    const read = createOptimizationStatusReader()
    let off = false
    try { new Function('return %GetOptimizationStatus(1)') } catch (err) { off = err instanceof SyntaxError }
    for (let i = 0; i < 10; i++) globalThis.gc()
    console.log(JSON.stringify({ off, tier: read(function f () {}).tier }))
  `
  const child = spawnSync(process.execPath, ['--expose-gc', '--stress-flush-code', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 })
  assert.equal(child.status, 0, child.stderr)
  assert.deepEqual(JSON.parse(child.stdout), { off: true, tier: 'lazy' })
})
