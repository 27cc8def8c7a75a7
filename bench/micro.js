#!/usr/bin/env node
/**
 * How often dyno micro and benchmark.js tell the truth, measured the same way in one run.
 *
 *   A/A:      two byte-identical functions, N runs each tool. A false positive is dyno calling
 *             them significantly different, or benchmark.js's "Fastest is" naming one alone.
 *   10%:      a real 10% difference, N/2 runs of dyno: how often it is called significant.
 *   order:    one helper fed numbers by one case and strings by the other, both orders, each tool:
 *             how much each case's ops/sec moves when the order is swapped.
 *   time:     the three-case example at default settings and with --quick.
 *
 *   node bench/micro.js [--runs 20]
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' } } })
const runs = Number(values.runs)
const root = fileURLToPath(new URL('..', import.meta.url))
const here = (/** @type {string} */ f) => fileURLToPath(new URL(`micro/${f}`, import.meta.url))

/** @param {string} file @param {string[]} [flags] @param {Record<string, string>} [env] */
function dyno (file, flags = [], env = {}) {
  const out = execFileSync(process.execPath, [`${root}bin/dyno.js`, 'micro', '--json', ...flags, file], { env: { ...process.env, ...env }, maxBuffer: 1 << 28 })
  return JSON.parse(String(out)).files[0].groups[0]
}

/** @param {Record<string, string>} env */
function benchmarkjs (env) {
  return JSON.parse(String(execFileSync(process.execPath, [here('benchmarkjs.cjs')], { env: { ...process.env, ...env } })).trim().split('\n').pop() ?? '')
}

const log = (/** @type {string} */ s) => process.stdout.write(s + '\n')

let dynoFalse = 0
let benchFalse = 0
for (let i = 0; i < runs; i++) {
  const g = dyno(here('aa.js'))
  const separated = g.fastest.separated
  if (separated) dynoFalse++
  const b = benchmarkjs({ SUITE: 'aa' })
  if (b.fastest.length === 1) benchFalse++
  log(`A/A run ${i + 1}: dyno ${separated ? 'DIFFERENT' : 'same'} (p = ${g.cases[1].againstFastest?.p.toFixed(3) ?? g.cases[0].againstFastest?.p.toFixed(3)}), benchmark.js "Fastest is ${b.fastest.join(', ')}"`)
}

let detected = 0
const tenRuns = Math.max(1, Math.round(runs / 2))
for (let i = 0; i < tenRuns; i++) {
  const g = dyno(here('ten-percent.js'))
  const ok = g.fastest.separated && g.fastest.names[0] === 'less'
  if (ok) detected++
  const vs = g.cases.find((/** @type {any} */ c) => c.againstFastest)?.againstFastest
  log(`10% run ${i + 1}: ${ok ? 'significant' : 'not separated'}, fastest ${g.fastest.names[0]}, the other ${vs.ratio.toFixed(3)}x slower (${vs.low.toFixed(3)}–${vs.high.toFixed(3)})`)
}

/** @param {Record<string, number>} a @param {Record<string, number>} b */
const moved = (a, b) => Object.keys(a).map((k) => `${k} ${((b[k] / a[k] - 1) * 100).toFixed(1)}%`).join(', ')
const opsOf = (/** @type {any} */ g) => Object.fromEntries(g.cases.map((/** @type {any} */ c) => [c.name, c.summary.opsPerSecond]))
const d1 = dyno(here('order.js'))
const d2 = dyno(here('order.js'), [], { ORDER: 'reversed' })
const rme = d1.cases.map((/** @type {any} */ c) => `${c.name} ±${c.summary.rme.toFixed(1)}%`).join(', ')
const b1 = benchmarkjs({ SUITE: 'order' })
const b2 = benchmarkjs({ SUITE: 'order', ORDER: 'reversed' })

const t0 = Date.now()
dyno(`${root}examples/micro/divide-by-and-sum.js`)
const tDefault = (Date.now() - t0) / 1000
const t1 = Date.now()
dyno(`${root}examples/micro/divide-by-and-sum.js`, ['--quick'])
const tQuick = (Date.now() - t1) / 1000

log('')
log(`A/A false positives (${runs} runs): dyno ${dynoFalse}/${runs}, benchmark.js "Fastest is" names one of two identical functions ${benchFalse}/${runs}`)
log(`10% difference detected by dyno: ${detected}/${tenRuns}`)
log(`order swapped, change in each case's ops/sec: dyno ${moved(opsOf(d1), opsOf(d2))} (its own ± in one run: ${rme}); benchmark.js ${moved(b1.ops, b2.ops)}`)
log(`three-case example: ${tDefault.toFixed(1)} s at default settings, ${tQuick.toFixed(1)} s with --quick`)
