#!/usr/bin/env node
/**
 * Does dyno's before/after verdict hold on this machine? For each way of comparing, how often
 * identical code is called different (A/A: a false positive), and how often a real 10% change
 * (the same loop doing 10 passes instead of 11) is found faster.
 *
 *   against:  dyno micro --against HEAD, in a git repository built here: A/A with the working
 *             tree equal to HEAD; 10% with HEAD doing 11 passes and the working tree 10.
 *   saved:    dyno micro --save runs taken one after another, compared as dyno compare does:
 *             A/A pairs of runs of the same code; 10% pairs of runs of the two versions. Also
 *             how the A/A rate moves with BETWEEN_RUNS, the drift allowance it calibrates.
 *   load:     dyno compare --load with --a and --b, with its defaults (rounds until the answer is
 *             known, or --max-time), on a server doing 40 passes of a loop per request (about a
 *             millisecond of CPU): A/A with both at 40; 10% with b at 36 passes, 5% with b at 38,
 *             found faster on requests/sec. Each run's verdict, interval and time.
 *
 *   --busy    keeps one CPU busy with another process for the whole run, as a shared machine does.
 *
 *   node bench/verify.js [--runs 20] [--only against,saved,load] [--busy] [--load-flags '-c 4 …']
 *                        [--compare-flags '--max-time 60'] [-- extra dyno micro flags]
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { BETWEEN_RUNS, compareResults } from '../lib/kinds/compare/results.js'

const { values, positionals: extra } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    only: { type: 'string', default: 'against,saved,load' },
    'load-flags': { type: 'string', default: '-c 4 http://127.0.0.1:$PORT/' },
    'compare-flags': { type: 'string', default: '' },
    busy: { type: 'boolean', default: false }
  },
  allowPositionals: true
})
const runs = Number(values.runs)
const parts = new Set(values.only.split(','))
const dyno = fileURLToPath(new URL('../bin/dyno.js', import.meta.url))
const api = new URL('../lib/micro/api.js', import.meta.url).href
const log = (/** @type {string} */ s) => process.stdout.write(s + '\n')
/** @type {string[]} */
const summary = []

/** @param {number} passes */
const library = (passes) => `export function work (xs) {
  let sum = 0
  for (let r = 0; r < ${passes}; r++) for (let i = 0; i < xs.length; i++) sum += xs[i] * r
  return sum
}
`
const benchFile = `import { bench } from '${api}'
import { work } from './lib.js'
bench('work', work, { setup: () => Array.from({ length: 200 }, (_, i) => i * 0.5) })
`

const dir = mkdtempSync(join(tmpdir(), 'dyno-verify-'))
const git = (/** @type {string[]} */ ...args) => execFileSync('git', ['-c', 'user.name=dyno', '-c', 'user.email=dyno@example.invalid', ...args], { cwd: dir, stdio: 'pipe' })
git('init', '-q')
writeFileSync(join(dir, 'bench.js'), benchFile)
/** @param {number} passes */
const setPasses = (passes) => writeFileSync(join(dir, 'lib.js'), library(passes))

/** @param {string[]} args */
function micro (args) {
  return JSON.parse(String(execFileSync(process.execPath, [dyno, 'micro', '--json', ...extra, ...args, 'bench.js'], { cwd: dir, maxBuffer: 1 << 28 })))
}

/** @param {number} n @param {number} of */
const rate = (n, of) => `${n}/${of}`
/** @param {number[]} xs @param {number} q 0..1 */
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.round(q * (xs.length - 1))]

// Another process on a CPU for the whole run, as on a shared machine; ended with the run.
const busy = values.busy ? spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }) : null
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => {
    busy?.kill()
    process.exit(130)
  })
}

try {
  if (parts.has('against')) {
    setPasses(11)
    git('add', '.')
    git('commit', '-q', '-m', 'eleven passes')
    for (const [label, passes] of /** @type {const} */ ([['A/A', 11], ['10%', 10]])) {
      setPasses(passes)
      /** @type {Record<string, number>} */
      const verdicts = { faster: 0, slower: 0, indistinguishable: 0 }
      for (let i = 0; i < runs; i++) {
        const c = micro(['--against', 'HEAD']).comparisons[0]
        verdicts[c.verdict]++
        log(`against ${label} run ${i + 1}: ${c.verdict}, ${c.ratio.toFixed(3)}x (${c.low.toFixed(3)}–${c.high.toFixed(3)}), p = ${c.p.toFixed(3)}`)
      }
      summary.push(label === 'A/A'
        ? `micro --against, A/A (${runs} runs): called different ${rate(verdicts.faster + verdicts.slower, runs)}`
        : `micro --against, 10% faster (${runs} runs): found faster ${rate(verdicts.faster, runs)}, slower ${rate(verdicts.slower, runs)}`)
    }
  }

  if (parts.has('saved')) {
    // Runs taken one after another, as a user saves before and after a change.
    const same = []
    for (let i = 0; i < 2 * runs; i++) {
      setPasses(11)
      same.push(micro([]))
      log(`saved A/A run ${i + 1} of ${2 * runs}`)
    }
    const tenPairs = []
    for (let i = 0; i < runs; i++) {
      setPasses(11)
      const before = micro([])
      setPasses(10)
      tenPairs.push([before, micro([])])
      log(`saved 10% pair ${i + 1} of ${runs}`)
    }
    /** @param {any} a @param {any} b @param {number} betweenRuns */
    const verdict = (a, b, betweenRuns) => compareResults({ kind: 'micro', doc: a }, { kind: 'micro', doc: b }, { betweenRuns }).comparisons[0].verdict
    for (const betweenRuns of [0, 1, 2, BETWEEN_RUNS, 2 * BETWEEN_RUNS].filter((x, i, all) => all.indexOf(x) === i).sort((x, y) => x - y)) {
      let disjoint = 0
      for (let i = 0; i < runs; i++) if (verdict(same[2 * i], same[2 * i + 1], betweenRuns) !== 'indistinguishable') disjoint++
      let any = 0
      let pairs = 0
      for (let i = 0; i < same.length; i++) {
        for (let j = i + 1; j < same.length; j++, pairs++) if (verdict(same[i], same[j], betweenRuns) !== 'indistinguishable') any++
      }
      const found = tenPairs.filter(([a, b]) => verdict(a, b, betweenRuns) === 'faster').length
      const mark = betweenRuns === BETWEEN_RUNS ? ' (dyno compare)' : ''
      summary.push(`saved runs, BETWEEN_RUNS = ${betweenRuns}${mark}: A/A called different ${rate(disjoint, runs)} pairs (${rate(any, pairs)} of all pairs of the ${same.length} runs); 10% found faster ${rate(found, runs)}`)
    }
  }

  if (parts.has('load')) {
    writeFileSync(join(dir, 'server.cjs'), `const passes = Number(process.argv[2])
const xs = Array.from({ length: 25000 }, (_, i) => i * 0.5)
require('node:http').createServer((req, res) => {
  let sum = 0
  for (let r = 0; r < passes; r++) for (let i = 0; i < xs.length; i++) sum += xs[i] * r
  res.end(String(sum))
}).listen(Number(process.env.PORT), '127.0.0.1')
`)
    const extraFlags = values['compare-flags'].split(' ').filter(Boolean)
    for (const [label, passes] of /** @type {const} */ ([['A/A', 40], ['10%', 36], ['5%', 38]])) {
      /** @type {Record<string, number>} */
      const verdicts = { faster: 0, slower: 0, indistinguishable: 0 }
      /** @type {number[]} */
      const seconds = []
      for (let i = 0; i < runs; i++) {
        const args = ['compare', '--json', '--load', values['load-flags'], ...extraFlags, '--a', 'node server.cjs 40', '--b', `node server.cjs ${passes}`]
        // A gate that fails (exit code 3) or a version that fails (1) still prints its result.
        const run = spawnSync(process.execPath, [dyno, ...args], { cwd: dir, maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] })
        const result = JSON.parse(String(run.stdout))
        const c = result.comparisons[0]
        verdicts[c.verdict]++
        seconds.push(result.elapsedMs / 1000)
        log(`load ${label} run ${i + 1}: ${c.verdict}, ${c.ratio.toFixed(3)}x (${c.low.toFixed(3)}–${c.high.toFixed(3)}), ${result.rounds.length} rounds, ${(result.elapsedMs / 1000).toFixed(0)} s, stopped: ${result.stopped}`)
      }
      const time = `median ${quantile(seconds, 0.5).toFixed(0)} s, ${quantile(seconds, 0).toFixed(0)}–${quantile(seconds, 1).toFixed(0)} s`
      summary.push(label === 'A/A'
        ? `compare --load, A/A (${runs} runs): requests/sec called different ${rate(verdicts.faster + verdicts.slower, runs)}; ${time}`
        : `compare --load, ${label} less work per request (${runs} runs): found faster ${rate(verdicts.faster, runs)}, slower ${rate(verdicts.slower, runs)}; ${time}`)
    }
  }
} finally {
  busy?.kill()
  rmSync(dir, { recursive: true, force: true })
}

log('')
for (const line of summary) log(line)
