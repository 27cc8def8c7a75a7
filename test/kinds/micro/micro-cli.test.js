import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { runDyno } from '../../helpers/cli.js'
import { assertFollowsFromProcesses, assertTerminalSays, microSaved } from '../../helpers/micro.js'
import { onceWithin } from '../../helpers/wait.js'

const fixture = (/** @type {string} */ name) => fileURLToPath(new URL(`../../fixtures/micro/${name}`, import.meta.url))
// Small budgets keep the suite quick on every Node line; precision is what they give up.
const FAST = ['--rounds', '4', '--warmup', '30ms', '--time', '50ms']

/** @param {string} stderr */
function oneLine (stderr) {
  const lines = stderr.trim().split('\n')
  assert.equal(lines.length, 1, `expected one line, got:\n${stderr}`)
  return lines[0]
}

test('dyno micro --help and dyno compare --help document every flag with its default', async () => {
  const micro = await runDyno(['micro', '--help'])
  assert.equal(micro.code, 0)
  for (const text of ['-r, --rounds <n>', 'a fresh process per case (default: 20)', '--warmup <seconds>', '(default: 0.1)', '-t, --time', '(default: 0.05)',
    '-q, --quick', '--timeout <seconds>', '(default: 20)', '-j, --json', '-s, --save <name>']) {
    assert.ok(micro.stdout.includes(text), `micro help lacks ${text}`)
  }
  const compare = await runDyno(['compare', '--help'])
  assert.equal(compare.code, 0)
  assert.match(compare.stdout, /Usage: dyno compare \[flags\] <a\.json> <b\.json>/)
  const top = await runDyno(['--help'])
  assert.match(top.stdout, /\n {2}micro +micro-benchmarks/)
  assert.match(top.stdout, /\n {2}compare +is b faster/)
})

test('usage mistakes: one line, exit code 2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-micro-'))
  writeFileSync(join(dir, 'other.json'), '{"hello":"world"}')
  writeFileSync(join(dir, 'broken.json'), '{')
  const cases = [
    [['micro'], /no benchmark file given/],
    [['micro', 'missing.js'], /cannot read the benchmark file missing\.js: no such file/],
    [['micro', '.'], /\. is not a file/],
    [['micro', '--rounds', '1', 'x.js'], /-r\/--rounds must be at least 2/],
    [['micro', '--save', '../up', fixture('aa.js')], /--save takes a plain name/],
    [['micro', '--qiuck', 'x.js'], /unknown flag --qiuck \(did you mean --quick\?\)/],
    [['compare', 'a.json'], /^dyno compare: two result files are wanted, a then b/],
    [['compare', 'missing.json', 'other.json'], /cannot read missing\.json: no such file/],
    [['compare', 'other.json', 'other.json'], /other\.json is not a result dyno compare understands/],
    [['compare', 'broken.json', 'other.json'], /broken\.json is not JSON/]
  ]
  for (const [args, message] of /** @type {[string[], RegExp][]} */ (cases)) {
    const { code, stderr } = await runDyno(args, { cwd: dir })
    assert.equal(code, 2, `${args.join(' ')}: ${stderr}`)
    assert.match(oneLine(stderr), message)
  }
})

test('bad benchmark files: each failure named in one line with its code, the good case still reported, exit code 1', async () => {
  // --timeout bounds every answer of a case's process, its start included: long enough for the
  // good case to start on a busy machine, and paid once by the case that never settles.
  const { code, stdout, stderr } = await runDyno(['micro', ...FAST, '--timeout', '10', fixture('bad-cases.js'), fixture('syntax-error.js'), fixture('throws-at-load.js')], { timeout: 90_000 })
  assert.equal(code, 1)
  assert.match(stdout, /^fine x [\d,]+ ops\/sec ±[\d.]+% \([\d,]+ runs sampled in 4 processes\)$/m)
  const lines = stderr.trim().split('\n').map((l) => l.replace(/^dyno micro: test\/fixtures\/micro\//, ''))
  assert.equal(lines.length, 5, stderr)
  assert.equal(lines[0], 'bad-cases.js: case "setup throws" failed (setup): Error: no data today (bad-cases.js:5:24) [DYNO_BENCH_SETUP_THREW]')
  assert.match(lines[1], /^bad-cases\.js: case "throws" failed \(run\): SyntaxError: .*JSON.* \(bad-cases\.js:7:28\) \[DYNO_BENCH_CASE_THREW\]$/)
  assert.equal(lines[2], 'bad-cases.js: case "never settles" failed (run): did not finish within 10 s (an async case that never settles? see --timeout) [DYNO_BENCH_TIMEOUT]')
  assert.equal(lines[3], "syntax-error.js: could not run the file (load): SyntaxError: Unexpected token ')' (syntax-error.js:3) [DYNO_BENCH_SYNTAX]")
  assert.equal(lines[4], 'throws-at-load.js: could not run the file (load): RangeError: the file itself fails (throws-at-load.js:4:7) [DYNO_BENCH_LOAD_THREW]')
  assert.match(stdout, /^setup throws failed \(setup\): Error: no data today \(bad-cases\.js:5:24\) \[DYNO_BENCH_SETUP_THREW\]$/m)
})

test('an ES module that does not parse is named with its line, as Node names it', async () => {
  // A .js file outside any package.json is taken for a module by its syntax; then neither the
  // import's error nor `node --check` (on Node 20 and 22) says where the mistake is.
  const dir = mkdtempSync(join(tmpdir(), 'dyno-micro-'))
  const api = new URL('../../../lib/micro/api.js', import.meta.url).href
  writeFileSync(join(dir, 'reserved.js'), `import { bench } from '${api}'\n\nfunction sum () {\n  await 1\n}\nbench('sum', sum)\n`)
  const { code, stderr } = await runDyno(['micro', ...FAST, 'reserved.js'], { cwd: dir })
  assert.equal(code, 1)
  assert.equal(oneLine(stderr), 'dyno micro: reserved.js: could not run the file (load): SyntaxError: Unexpected reserved word (reserved.js:4) [DYNO_BENCH_SYNTAX]')
})

test('a file that declares its cases wrongly, or none, is named with the code of its mistake, in the report and in --json', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-micro-'))
  const api = new URL('../../../lib/micro/api.js', import.meta.url).href
  writeFileSync(join(dir, 'twice.js'), `import { bench, group } from '${api}'\n\ngroup('sums', () => {\n  bench('a', () => 1)\n  bench('a', () => 2)\n})\n`)
  writeFileSync(join(dir, 'nameless.js'), `import { bench } from '${api}'\n\nbench('', () => 1)\n`)
  writeFileSync(join(dir, 'no-function.js'), `import { bench } from '${api}'\n\nbench('sum', 42)\n`)
  writeFileSync(join(dir, 'empty.js'), `import '${api}'\n`)
  writeFileSync(join(dir, 'throws-a-value.js'), `import '${api}'\n\nthrow 'a string'\n`)
  const files = ['twice.js', 'nameless.js', 'no-function.js', 'empty.js', 'throws-a-value.js']
  const { code, stdout, stderr } = await runDyno(['micro', ...FAST, '--json', ...files], { cwd: dir })
  assert.equal(code, 1, stderr)
  assert.deepEqual(stderr.trim().split('\n'), [
    'dyno micro: twice.js: could not run the file (load): two cases are named "a" in group "sums"; give each its own name [DYNO_BENCH_BAD_CASE]',
    'dyno micro: nameless.js: could not run the file (load): bench() needs a name as its first argument [DYNO_BENCH_BAD_CASE]',
    'dyno micro: no-function.js: could not run the file (load): bench("sum") needs a function as its second argument [DYNO_BENCH_BAD_CASE]',
    'dyno micro: empty.js: could not run the file (load): declares no cases; add some with bench(name, fn) [DYNO_BENCH_NO_CASES]',
    'dyno micro: throws-a-value.js: could not run the file (load): threw a string [DYNO_BENCH_LOAD_THREW]'
  ])
  const result = JSON.parse(stdout)
  assert.deepEqual(result.files.map((/** @type {any} */ f) => f.error), [
    { stage: 'load', code: 'DYNO_BENCH_BAD_CASE', message: 'two cases are named "a" in group "sums"; give each its own name' },
    { stage: 'load', code: 'DYNO_BENCH_BAD_CASE', message: 'bench() needs a name as its first argument' },
    { stage: 'load', code: 'DYNO_BENCH_BAD_CASE', message: 'bench("sum") needs a function as its second argument' },
    { stage: 'load', code: 'DYNO_BENCH_NO_CASES', message: 'declares no cases; add some with bench(name, fn)' },
    { stage: 'load', code: 'DYNO_BENCH_LOAD_THREW', message: 'threw a string' }
  ])
})

// Whether a short run tells four times the work apart, and calls byte-identical functions the same,
// depends on how busy the machine is: test/timing/micro.test.js. Here: what dyno printed is what
// the processes it recorded say.
test('two cases, one doing four times the work: the table and the verdict follow from the processes recorded', async () => {
  const { code, stdout, stderr, groups } = await microSaved(['--rounds', '6', '--warmup', '30ms', '--time', '50ms', fixture('real-difference.js')])
  assert.equal(code, 0, stderr)
  assert.equal(groups.length, 1)
  assert.deepEqual(groups[0].cases.map((/** @type {any} */ c) => c.processes.length), [6, 6])
  assertFollowsFromProcesses(groups[0])
  assertTerminalSays(stdout, groups)
})

test('A/A, five pairs of byte-identical functions: each pair\'s verdict follows from the processes recorded', async () => {
  const { code, stdout, stderr, groups } = await microSaved(['--rounds', '3', '--warmup', '30ms', '--time', '50ms', fixture('aa.js')])
  assert.equal(code, 0, stderr)
  assert.deepEqual(groups.map((g) => g.name), ['pair 1', 'pair 2', 'pair 3', 'pair 4', 'pair 5'])
  for (const group of groups) assertFollowsFromProcesses(group)
  assertTerminalSays(stdout, groups)
})

test('--json has every sample and a schemaVersion; --save stores it; dyno compare reads two', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-micro-'))
  const first = await runDyno(['micro', ...FAST, '--json', '--save', 'before', fixture('real-difference.js')], { cwd: dir })
  assert.equal(first.code, 0, first.stderr)
  assert.equal(first.stderr, `saved to ${join('.dyno', 'micro', 'before.json')} (a later --save before adds its run to this one)\n`)
  const result = JSON.parse(first.stdout)
  assert.equal(result.schemaVersion, 2)
  assert.equal(result.kind, 'dyno-micro')
  const [less, more] = result.files[0].groups[0].cases
  assert.deepEqual(less.processes.map((/** @type {any} */ p) => p.round), [0, 1, 2, 3])
  for (const p of less.processes) {
    assert.equal(p.slices.length, 5) // 50 ms in slices of 10 ms
    if (process.platform === 'linux') assert.equal(typeof p.cpu, 'number') // the round's processes sampled on one CPU
    assert.ok(p.samples.length >= 5 && p.samples.every((/** @type {number} */ s) => s > 0))
  }
  assert.equal(typeof more.againstFastest.p, 'number')
  assert.equal(more.againstFastest.rounds, 4)
  assert.ok(more.againstFastest.ratio > 0)
  const saved = JSON.parse(readFileSync(join(dir, '.dyno', 'micro', 'before.json'), 'utf8'))
  assert.equal(saved.kind, 'dyno-micro-runs')
  assert.deepEqual(saved.runs.map((/** @type {any} */ r) => r.files), [result.files])

  const second = await runDyno(['micro', ...FAST, '--save', 'after', fixture('real-difference.js')], { cwd: dir })
  assert.equal(second.code, 0, second.stderr)
  const compared = await runDyno(['compare', '.dyno/micro/before.json', '.dyno/micro/after.json'], { cwd: dir })
  assert.equal(compared.code, 0, compared.stderr)
  assert.match(compared.stdout, /^a: \.dyno\/micro\/before\.json \(Node v/)
  assert.match(compared.stdout, /│ less +│ [\d,]+ +│ [\d,]+ +│ [\d.]+x \([\d.]+x–[\d.]+x\) +│ p [<=] [\d.]+ +│ (faster|slower|indistinguishable) +│/)
  assert.match(compared.stdout, /│ more +│/)
  // A result written by dyno micro's first method (schema 1) is still read, with a warning.
  const older = await runDyno(['compare', fixture('schema-1.json'), '.dyno/micro/after.json'], { cwd: dir })
  assert.equal(older.code, 0, older.stderr)
  assert.match(older.stdout, /│ more +│ [\d,]+ +│ [\d,]+ +│ [\d.]+x \([\d.]+x–[\d.]+x\) +│ p [<=] [\d.]+ +│ (faster|slower|indistinguishable) +│/)
  assert.match(older.stdout, /^a and b were written by different versions of dyno micro \(schema 1 and 2\)/m)
  const json = await runDyno(['compare', '--json', '.dyno/micro/before.json', '.dyno/micro/after.json'], { cwd: dir })
  const { schemaVersion, comparisons } = JSON.parse(json.stdout)
  assert.equal(schemaVersion, 1)
  assert.deepEqual(comparisons.map((/** @type {any} */ r) => r.name), ['less', 'more'])
  for (const r of comparisons) assert.ok(['faster', 'slower', 'indistinguishable'].includes(r.verdict))
})

test('two --saves under one name add runs, and say so; a file that holds something else is refused before the run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-micro-'))
  const light = ['micro', '--rounds', '2', '--warmup', '20ms', '--time', '20ms', '--save', 'base', fixture('one-case.js')]
  const first = await runDyno(light, { cwd: dir })
  assert.equal(first.code, 0, first.stderr)
  const second = await runDyno(light, { cwd: dir })
  assert.equal(second.code, 0, second.stderr)
  assert.equal(second.stderr, `added to ${join('.dyno', 'micro', 'base.json')}: run 2 under this name (dyno compare takes its runs as repeats; remove the file to start afresh)\n`)
  const saved = JSON.parse(readFileSync(join(dir, '.dyno', 'micro', 'base.json'), 'utf8'))
  assert.equal(saved.runs.length, 2)
  assert.ok(saved.runs[0].startedAt < saved.runs[1].startedAt)

  writeFileSync(join(dir, '.dyno', 'micro', 'other.json'), '{"not":"a run"}')
  const refused = await runDyno(['micro', '--save', 'other', fixture('one-case.js')], { cwd: dir })
  assert.equal(refused.code, 2)
  assert.match(oneLine(refused.stderr), /\.dyno\/micro\/other\.json holds something other than saved dyno micro runs/)
})

test('plain node runs a benchmark file that ends with run(), with the settings given to run() and --json from the command line', async () => {
  /** @param {string[]} args */
  const plainNode = async (args) => {
    const child = spawn(process.execPath, [fixture('plain-node.js'), ...args], { env: { ...process.env, NO_COLOR: '1' } })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d })
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d })
    try {
      const [code] = await onceWithin(child, 'close', { what: `the end of node ${fixture('plain-node.js')} ${args.join(' ')}`, timeoutMs: 120_000 })
      return { code, stdout, stderr }
    } finally {
      child.kill('SIGKILL')
    }
  }
  const { code, stdout, stderr } = await plainNode(['--json'])
  assert.equal(code, 0, stderr)
  const result = JSON.parse(stdout)
  assert.equal(result.settings.rounds, 4)
  assert.deepEqual(result.files[0].groups[0].cases.map((/** @type {any} */ c) => c.name), ['join', 'concat'])
  const bad = await plainNode(['--rounds', '3'])
  assert.equal(bad.code, 2)
  assert.match(oneLine(bad.stderr), /^dyno micro: a benchmark file run by node takes --quick and --json, not "--rounds"/)
})

test('order does not leak between cases: a helper fed numbers is never deoptimized by the case that feeds it strings', async () => {
  for (const order of ['declared', 'reversed']) {
    const { code, stdout, stderr } = await runDyno(['micro', ...FAST, '--json', fixture('shared-helper.js')], { env: { ORDER: order } })
    assert.equal(code, 0, stderr)
    const cases = JSON.parse(stdout).files[0].groups[0].cases
    assert.deepEqual(cases.map((/** @type {any} */ c) => c.name), order === 'declared' ? ['numbers', 'strings'] : ['strings', 'numbers'])
    const numbers = cases.find((/** @type {any} */ c) => c.name === 'numbers')
    for (const p of numbers.processes) {
      assert.deepEqual(p.v8.deopts.filter((/** @type {any} */ d) => d.name === 'combine'), [], `${order}: ${JSON.stringify(p.v8.deopts)}`)
    }
  }
})

test('V8 insight: the deoptimization of a helper is reported with its reason and place', async () => {
  const { code, stdout, stderr } = await runDyno(['micro', ...FAST, fixture('deopt.js')])
  assert.equal(code, 0, stderr)
  assert.match(stdout, /^ {2}changes type: case \w+[^\n]* · add \w+[^\n]* · deoptimized \d+(-\d+)? times? per process$/m)
  assert.match(stdout, /^ {4}.+ at test\/fixtures\/micro\/deopt\.js:\d+:\d+( in add)? \(\d of 4 processes\)$/m)
  assert.match(stdout, /^ {2}stable: case [^\n]*· no deoptimizations$/m)
})
