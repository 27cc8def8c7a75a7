#!/usr/bin/env node
/**
 * Does the suite pass on a busy machine? Keeps one CPU busy with another
 * process (a plain spinning loop) and runs the tests on this Node N times,
 * one after another, then says which runs passed and which tests failed.
 *
 *   node scripts/busy-cpu-check.js                        the whole suite, 10 runs
 *   node scripts/busy-cpu-check.js --runs 5 test/load     these files or folders
 *   node scripts/busy-cpu-check.js --busy 0 test/stats    no busy process (a baseline)
 */
import { spawn } from 'node:child_process'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { testFiles } from './test-files.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '10' },
    busy: { type: 'string', default: '1' }
  }
})
const runs = Number(values.runs)
const busy = Number(values.busy)
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(busy) || busy < 0) {
  process.stderr.write('busy-cpu-check: --runs takes a whole number from 1, --busy one from 0\n')
  process.exit(2)
}
const files = (positionals.length ? positionals : ['test']).flatMap((p) => testFiles(join(root, p))).map((f) => relative(root, f))

// Each spinning process stops by itself once its parent (this script) is gone.
const SPIN = 'const parent = process.ppid; for (let i = 1; ; i++) if (i % 1e8 === 0 && process.ppid !== parent) process.exit()'
const spinners = Array.from({ length: busy }, () => spawn(process.execPath, ['-e', SPIN], { stdio: 'ignore' }))
const stopSpinners = () => { for (const spinner of spinners) spinner.kill('SIGKILL') }
/** @type {import('node:child_process').ChildProcess | null} */
let testRun = null
process.on('exit', stopSpinners)
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    testRun?.kill(signal)
    stopSpinners()
    process.exit(130)
  })
}

/**
 * One run of the files; resolves with whether it passed and the failed tests' names.
 * @returns {Promise<{ ok: boolean, failed: string[], seconds: number }>}
 */
function runOnce () {
  const started = Date.now()
  const child = spawn(process.execPath, ['--test', '--test-reporter=tap', ...files], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  testRun = child
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk) => { output += chunk })
  return new Promise((resolve) => {
    child.on('close', (code) => {
      testRun = null
      resolve({ ok: code === 0, failed: failures(output), seconds: (Date.now() - started) / 1000 })
    })
  })
}

/**
 * The failed tests in TAP output, each with the first line of its error.
 * @param {string} tap
 */
function failures (tap) {
  /** @type {{ name: string, error: string }[]} */
  const failed = []
  /** @type {{ name: string, error: string } | null} */
  let current = null
  let blockFollows = false
  for (const line of tap.split('\n')) {
    if (blockFollows && current) {
      // A multi-line error (`error: |-`): its first line follows.
      current.error = line.trim()
      blockFollows = false
      continue
    }
    const result = /^\s*(not )?ok \d+ - (.*)$/.exec(line)
    if (result) {
      current = result[1] ? { name: result[2], error: '' } : null
      if (current) failed.push(current)
      continue
    }
    const error = /^\s*error: (.*)$/.exec(line)
    if (error && current && !current.error) {
      if (/^[|>]-?$/.test(error[1])) blockFollows = true
      else current.error = error[1]
    }
  }
  return [...new Set(failed.map(({ name, error }) => error ? `${name}: ${error}` : name))]
}

process.stdout.write(`${files.length} test files on Node ${process.versions.node}, ${runs} runs, ${busy} CPU${busy === 1 ? '' : 's'} kept busy by another process\n`)
let passed = 0
for (let run = 1; run <= runs; run++) {
  const { ok, failed, seconds } = await runOnce()
  if (ok) passed++
  process.stdout.write(`run ${run}: ${ok ? 'passed' : 'FAILED'} (${seconds.toFixed(1)} s)${failed.map((name) => `\n  not ok: ${name}`).join('')}\n`)
}
stopSpinners()
process.stdout.write(`${passed} of ${runs} runs passed\n`)
process.exitCode = passed === runs ? 0 : 1
