#!/usr/bin/env node
/**
 * How often dyno micro and benchmark.js tell the truth, measured the same way in one run.
 *
 *   A/A:    two byte-identical functions, N runs of each tool. A false positive is dyno calling
 *           them significantly different, or benchmark.js's "Fastest is" naming one alone.
 *   10%:    the same loop doing 10 and 11 rounds of work, N runs of each tool: how often each
 *           names "less" alone as the fastest. The size of the difference is checked from all of
 *           dyno's rounds together (their geometric mean ratio and its 95% interval).
 *   order:  one helper fed numbers by one case and strings by the other, both orders, each tool:
 *           how much each case's ops/sec moves when the order is swapped.
 *   time:   the three-case example at default settings and with --quick.
 *
 *   node bench/micro.js [--runs 20] [--only aa,ten,order,time] [-- extra dyno micro flags]
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { compareRounds } from '../lib/stats/paired.js'
import { peerTool } from './lib/peers.js'

const { values, positionals: extra } = parseArgs({
  options: { runs: { type: 'string', default: '20' }, only: { type: 'string', default: 'aa,ten,order,time' } },
  allowPositionals: true
})
const runs = Number(values.runs)
const parts = new Set(values.only.split(','))
const root = fileURLToPath(new URL('..', import.meta.url))
const here = (/** @type {string} */ f) => fileURLToPath(new URL(`micro/${f}`, import.meta.url))
const log = (/** @type {string} */ s) => process.stdout.write(s + '\n')
/** @type {string[]} */
const summary = []

/** @param {string} file @param {string[]} [flags] @param {Record<string, string>} [env] */
function dyno (file, flags = extra, env = {}) {
  const out = execFileSync(process.execPath, [`${root}bin/dyno.js`, 'micro', '--json', ...flags, file], { env: { ...process.env, ...env }, maxBuffer: 1 << 28 })
  return JSON.parse(String(out)).files[0].groups[0]
}

/** @param {Record<string, string>} env */
function benchmarkjs (env) {
  peerTool('benchmark/benchmark.js')
  return JSON.parse(String(execFileSync(process.execPath, [here('benchmarkjs.cjs')], { env: { ...process.env, ...env } })).trim().split('\n').pop() ?? '')
}

/** @param {any} group @param {string} name */
const caseOf = (group, name) => group.cases.find((/** @type {any} */ c) => c.name === name)
/** @param {any} group */
const verdict = (group) => {
  const vs = group.cases.find((/** @type {any} */ c) => c.againstFastest)?.againstFastest
  return `fastest ${group.fastest.names.join(' or ')}, the other ${vs.ratio.toFixed(3)}x slower (${vs.low.toFixed(3)}–${vs.high.toFixed(3)}, p = ${vs.p.toFixed(3)})`
}

if (parts.has('aa')) {
  let dynoFalse = 0
  let benchFalse = 0
  for (let i = 0; i < runs; i++) {
    const g = dyno(here('aa.js'))
    if (g.fastest.separated) dynoFalse++
    const b = benchmarkjs({ SUITE: 'aa' })
    if (b.fastest.length === 1) benchFalse++
    log(`A/A run ${i + 1}: dyno ${g.fastest.separated ? 'DIFFERENT' : 'same'}, ${verdict(g)}; benchmark.js "Fastest is ${b.fastest.join(', ')}"`)
  }
  summary.push(`A/A (${runs} runs): dyno called two identical functions different ${dynoFalse}/${runs}; benchmark.js's "Fastest is" named one of them alone ${benchFalse}/${runs}`)
}

if (parts.has('ten')) {
  let detected = 0
  let benchDetected = 0
  let benchWrong = 0
  /** @type {[number[], number[]]} */
  const pooled = [[], []]
  for (let i = 0; i < runs; i++) {
    const g = dyno(here('ten-percent.js'))
    const ok = g.fastest.separated && g.fastest.names[0] === 'less'
    if (ok) detected++
    const [less, more] = [caseOf(g, 'less'), caseOf(g, 'more')]
    pooled[0].push(...less.summary.processOpsPerSecond)
    pooled[1].push(...more.summary.processOpsPerSecond)
    const b = benchmarkjs({ SUITE: 'ten' })
    const bOk = b.fastest.length === 1 && b.fastest[0] === 'less'
    if (bOk) benchDetected++
    if (b.fastest.includes('more')) benchWrong++
    log(`10% run ${i + 1}: dyno ${ok ? 'significant' : 'not separated'}, ${verdict(g)}; benchmark.js "Fastest is ${b.fastest.join(', ')}" (${(b.ops.less / b.ops.more).toFixed(3)}x)`)
  }
  const size = compareRounds(pooled[1], pooled[0])
  summary.push(`10% difference (${runs} runs): dyno named "less" alone as the fastest ${detected}/${runs}; benchmark.js ${benchDetected}/${runs} (named "more", alone or tied, ${benchWrong}/${runs})`)
  summary.push(`  the difference, from all of dyno's ${size.rounds} rounds: "more" ${size.ratio.toFixed(3)}x slower (${size.low.toFixed(3)}–${size.high.toFixed(3)})`)
}

if (parts.has('order')) {
  /** @param {Record<string, number>} a @param {Record<string, number>} b */
  const moved = (a, b) => Object.keys(a).map((k) => `${k} ${((b[k] / a[k] - 1) * 100).toFixed(1)}%`).join(', ')
  const opsOf = (/** @type {any} */ g) => Object.fromEntries(g.cases.map((/** @type {any} */ c) => [c.name, c.summary.opsPerSecond]))
  const d1 = dyno(here('order.js'))
  const d2 = dyno(here('order.js'), extra, { ORDER: 'reversed' })
  const rme = d1.cases.map((/** @type {any} */ c) => `${c.name} ±${c.summary.rme.toFixed(1)}%`).join(', ')
  const b1 = benchmarkjs({ SUITE: 'order' })
  const b2 = benchmarkjs({ SUITE: 'order', ORDER: 'reversed' })
  summary.push(`order swapped, change in each case's ops/sec: dyno ${moved(opsOf(d1), opsOf(d2))} (its own ± in one run: ${rme}); benchmark.js ${moved(b1.ops, b2.ops)}`)
}

if (parts.has('time')) {
  const example = `${root}examples/micro/divide-by-and-sum.js`
  const t0 = Date.now()
  dyno(example)
  const tDefault = (Date.now() - t0) / 1000
  const t1 = Date.now()
  dyno(example, [...extra, '--quick'])
  const tQuick = (Date.now() - t1) / 1000
  summary.push(`three-case example: ${tDefault.toFixed(1)} s at default settings, ${tQuick.toFixed(1)} s with --quick`)
}

log('')
for (const line of summary) log(line)
