import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const AGENT = fileURLToPath(new URL('../../lib/agent/agent.cjs', import.meta.url))
const APP = fileURLToPath(new URL('../fixtures/apps/reports-itself.cjs', import.meta.url))

test('the agent adds nothing the app can see: same output, no extra server, same exit code', () => {
  const runDir = mkdtempSync(join(tmpdir(), 'dyno-agent-'))
  const plain = spawnSync(process.execPath, [APP], { encoding: 'utf8' })
  const profiled = spawnSync(process.execPath, [APP], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: `--require "${AGENT}"`, DYNO_RUN_DIR: runDir, DYNO_COLLECTORS: '{"cpu":{}}' }
  })
  assert.equal(plain.status, 7)
  assert.equal(profiled.status, 7)
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
  const profiled = spawnSync(process.execPath, ['--require', AGENT, APP], { encoding: 'utf8', env: { ...process.env, DYNO_RUN_DIR: '' } })
  assert.equal(profiled.status, 7)
  assert.match(profiled.stdout, /listening servers: 1\n/)
})
