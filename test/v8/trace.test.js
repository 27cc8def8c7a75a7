import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { parseDeoptLog, parseTrace, v8Activity } from '../../lib/v8/trace.js'

/** @param {string} line */
function recorded (line) {
  const dir = new URL('../fixtures/v8-traces/', import.meta.url)
  return { trace: readFileSync(new URL(`node${line}.trace.txt`, dir), 'utf8'), log: readFileSync(new URL(`node${line}.log`, dir), 'utf8') }
}

// Recorded from test/fixtures/micro/deopt.js: a case whose helper sees numbers, then strings.
for (const line of ['20', '22', '24', '26']) {
  test(`Node ${line}: deoptimizations with reason, function and source location`, () => {
    const activity = v8Activity(recorded(line))
    const inCase = activity.deopts.filter((d) => d.location?.file.endsWith('/deopt.js'))
    assert.ok(inCase.length > 0, JSON.stringify(activity.deopts))
    for (const d of inCase) {
      assert.ok(d.reason.length > 0)
      assert.ok(d.name.length > 0, 'the trace and the log pair up, so every deopt has its function')
      assert.match(d.kind, /^deopt-/)
    }
    assert.ok(inCase.some((d) => d.location?.line === 9 && d.location.column === 73 && /type feedback/i.test(d.reason)))
    if (line !== '20') assert.ok(inCase.some((d) => d.name === 'add' && d.reason === 'not a Smi' && d.location?.line === 4))
  })

  test(`Node ${line}: optimizations with their tier, and inlining`, () => {
    const { optimizations, inlinings } = parseTrace(recorded(line).trace)
    const tiers = new Set(optimizations.filter((o) => o.name === 'add').map((o) => o.tier))
    assert.ok(tiers.size > 0)
    for (const tier of tiers) assert.ok(tier === 'turbofan' || tier === 'maglev', tier)
    assert.ok(inlinings.some((i) => i.callee === 'add'))
  })
}

test('the log parser reads inlined locations, escaped commas, and skips other events', () => {
  const log = [
    'v8-version,11,3,244,8,0,0',
    'code-deopt,100,384,0x7f,-1,84,deopt-eager,<file:///a/b.js:4:12> inlined at <file:///a/c.js:9:3>,not a Smi',
    'code-deopt,101,384,0x7f,-1,84,deopt-lazy,<file:///a/b.js:5:1>,wrong map\\x2C again',
    'code-deopt,short'
  ].join('\n')
  assert.deepEqual(parseDeoptLog(log), [
    { kind: 'deopt-eager', reason: 'not a Smi', location: { file: 'file:///a/b.js', line: 4, column: 12 } },
    { kind: 'deopt-lazy', reason: 'wrong map, again', location: { file: 'file:///a/b.js', line: 5, column: 1 } }
  ])
})

test('when trace and log disagree, names are left out rather than guessed', () => {
  const trace = '[bailout (kind: deopt-eager, reason: wrong map): begin. deoptimizing 0x1 <JSFunction f (sfi = 0x2)>, 0x3 <Code TURBOFAN>, opt id 1]'
  const log = 'code-deopt,1,2,0x3,-1,5,deopt-eager,<file:///x.js:1:1>,not a Smi'
  assert.deepEqual(v8Activity({ trace, log }).deopts, [{ name: '', reason: 'not a Smi', kind: 'deopt-eager', location: { file: 'file:///x.js', line: 1, column: 1 } }])
  assert.deepEqual(v8Activity({ trace, log: '' }).deopts, [{ name: 'f', reason: 'wrong map', kind: 'deopt-eager', location: null }])
})

test('older V8 deoptimization traces are read too', () => {
  const trace = '[deoptimizing (DEOPT eager): begin 0x1f5a <JSFunction forOwn (sfi = 0x1)> (opt #3) @1]\n        ;;; deoptimize at <lodash.js:10:3>, not a Smi'
  assert.deepEqual(parseTrace(trace).bailouts, [{ kind: 'deopt-eager', reason: 'not a Smi', name: 'forOwn' }])
})
