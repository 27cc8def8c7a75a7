// How an observing run ends an app that does not want to end, and the
// durations a flag may take.
import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { oneLine, runDyno } from '../helpers/cli.js'

const app = fileURLToPath(new URL('../fixtures/apps/ignores-sigterm.cjs', import.meta.url))

/** @param {number} pid */
function alive (pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

test('a duration past Node\'s longest timer is refused in one line, not taken as 1 ms', async () => {
  for (const args of [['flame', '--listen-timeout', '99999999'], ['doctor', '--stop-grace', '3000000'], ['micro', '--timeout', '99999999', 'x.js']]) {
    const run = await runDyno([...args, '--', process.execPath, app])
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`)
    assert.match(oneLine(run.stderr), /must be at most/)
  }
})

test('--stop-grace has a bound', async () => {
  const run = await runDyno(['flame', '--stop-grace', '700', '--', process.execPath, app])
  assert.equal(run.code, 2)
  assert.match(oneLine(run.stderr), /--stop-grace must be at most 600/)
})

test('an app that ignores SIGTERM: dyno says it is waiting, a second Ctrl-C kills it at once, and the end is not called clean', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-stopping-'))
  let pid = 0
  let interrupts = 0
  const run = await runDyno(['doctor', '--json', '--stop-grace', '300', '--', process.execPath, app], {
    cwd,
    env: { PORT: '0' },
    timeout: 60_000,
    onSpawn: (child) => {
      let seen = ''
      /** @param {string} chunk */
      const watch = (chunk) => {
        seen += chunk
        pid ||= Number(/as (\d+)/.exec(seen)?.[1] ?? 0)
        // First Ctrl-C once it listens, the second once dyno says it waits.
        if (interrupts === 0 && pid) {
          interrupts++
          child.kill('SIGINT')
        } else if (interrupts === 1 && seen.includes('Ctrl-C again kills it now')) {
          interrupts++
          child.kill('SIGINT')
        }
      }
      child.stdout?.on('data', watch)
      child.stderr?.on('data', watch)
    }
  })
  assert.equal(interrupts, 2, run.stderr)
  assert.match(run.stderr, /dyno: waiting up to 300 s for the app to end after SIGTERM \(--stop-grace\); Ctrl-C again kills it now/)
  assert.match(run.stderr, /dyno: killed the app \(SIGKILL\) on a second SIGINT/)
  assert.equal(run.code, 130)
  assert.equal(alive(pid), false)
  const document = JSON.parse(run.stdout)
  assert.equal(document.end.clean, false)
  assert.match(document.end.how, /killed by dyno \(SIGKILL\)/)
})

test('--load without a URL asks for one with $PORT, as an observing run needs, not a fixed port', async () => {
  const run = await runDyno(['doctor', '--load', '-c 10', '--', process.execPath, app])
  assert.equal(run.code, 2)
  assert.match(oneLine(run.stderr), /no URL given; pass one like http:\/\/127\.0\.0\.1:\$PORT\/ \(in single quotes/)
})

test('flags that would do nothing, or an empty --out, are said in one line, not ignored', async () => {
  const cases = [
    [['flame', '--out', ''], /--out takes a folder, not an empty value/],
    [['heap', '--sampling-interval', '1024'], /--sampling-interval sets the sampling heap profiler's interval; add --sampling/],
    [['heap', '--sampling', '--rounds', '3'], /--rounds counts the rounds between snapshots; with --sampling the load runs once/]
  ]
  for (const [args, message] of /** @type {[string[], RegExp][]} */ (cases)) {
    const run = await runDyno([...args, '--', process.execPath, app])
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`)
    assert.match(oneLine(run.stderr), message)
  }
})

test('a folder where a file is wanted, or a file where a folder is: said in words, not as EISDIR or ENOTDIR', async () => {
  const examples = fileURLToPath(new URL('../../examples', import.meta.url))
  const file = fileURLToPath(new URL('../../package.json', import.meta.url))
  const cases = [
    [['load', '-i', examples, 'http://127.0.0.1:9/'], /cannot read the body file .*: it is a folder, not a file/],
    [['load', '--requests', examples, 'http://127.0.0.1:9/'], /cannot load requests file .*: it is a folder, not a file/],
    [['compare', examples, examples], /cannot read .*: it is a folder, not a file/],
    [['flame', '--view', examples], /cannot read .* as JSON: it is a folder, not a file/],
    [['report', file], /does not exist; is .*package\.json a dyno run folder\?/]
  ]
  for (const [args, message] of /** @type {[string[], RegExp][]} */ (cases)) {
    const run = await runDyno(args)
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`)
    const line = oneLine(run.stderr)
    assert.match(line, message)
    assert.doesNotMatch(line, /EISDIR|ENOTDIR/)
  }
})
