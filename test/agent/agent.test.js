import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const AGENT = fileURLToPath(new URL('../../lib/agent/agent.cjs', import.meta.url))
const APP = fileURLToPath(new URL('../fixtures/apps/reports-itself.cjs', import.meta.url))

test('the agent adds nothing the app can see: same output, no extra server, same exit code', () => {
  const runDir = mkdtempSync(join(tmpdir(), 'dyno-agent-'))
  const plain = spawnSync(process.execPath, [APP], { timeout: 60_000, encoding: 'utf8' })
  // A deadline on each run: an agent that kept the app alive would hang the test.
  const profiled = spawnSync(process.execPath, [APP], {
    timeout: 60_000,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: `--require "${AGENT}"`, DYNO_RUN_DIR: runDir, DYNO_COLLECTORS: '{"cpu":{}}' }
  })
  assert.equal(plain.status, 7)
  assert.equal(profiled.status, 7, `the profiled app: ${profiled.signal ? 'still running after 60 s' : profiled.stderr}`)
  assert.equal(profiled.stdout, plain.stdout)
  assert.equal(profiled.stderr, plain.stderr)
  assert.match(plain.stdout, /listening servers: 1\n/)
  // And it did profile: a chunk, how it ended, where it listened.
  const files = readdirSync(join(runDir, 'raw'))
  assert.ok(files.some((f) => /^\d+\.cpu\.0\.cpuprofile$/.test(f)), files.join(' '))
  assert.ok(files.some((f) => /^\d+\.end\.json$/.test(f)))
  assert.ok(files.some((f) => /^\d+\.listening\.json$/.test(f)))
})

test('without dyno\'s environment the agent does nothing', () => {
  const profiled = spawnSync(process.execPath, ['--require', AGENT, APP], { timeout: 60_000, encoding: 'utf8', env: { ...process.env, DYNO_RUN_DIR: '' } })
  assert.equal(profiled.status, 7)
  assert.match(profiled.stdout, /listening servers: 1\n/)
})

test('a worker thread of the app is observed from inside: its own profile, written at its end', () => {
  const runDir = mkdtempSync(join(tmpdir(), 'dyno-agent-'))
  const app = join(runDir, 'threads.cjs')
  writeFileSync(app, [
    "const { Worker, isMainThread } = require('node:worker_threads')",
    'function burnInWorker () { let x = 0; for (let i = 0; i < 3e7; i++) x += Math.sqrt(i); return x }',
    "if (isMainThread) new Worker(__filename).on('exit', () => console.log('worker done'))",
    'else burnInWorker()'
  ].join('\n'))
  const run = spawnSync(process.execPath, [app], {
    timeout: 60_000,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: `--require "${AGENT}"`, DYNO_RUN_DIR: runDir, DYNO_COLLECTORS: '{"cpu":{}}' }
  })
  assert.equal(run.status, 0, run.stderr)
  assert.equal(run.stdout, 'worker done\n')
  const files = readdirSync(join(runDir, 'raw'))
  // The agent's own thread is not observed: the app's worker is the only thread unit.
  const threadChunks = files.filter((f) => /^\d+-\d+\.cpu\.\d+\.cpuprofile$/.test(f))
  assert.equal(new Set(threadChunks.map((f) => f.split('.')[0])).size, 1, files.join(' '))
  const profile = JSON.parse(readFileSync(join(runDir, 'raw', threadChunks[0]), 'utf8'))
  const burn = profile.nodes.find((/** @type {{ callFrame: { functionName: string } }} */ n) => n.callFrame.functionName === 'burnInWorker')
  assert.ok(burn && burn.hitCount > 0, 'burnInWorker is not in the thread\'s profile')
  assert.ok(files.some((f) => /^\d+-\d+\.end\.json$/.test(f)))
})
