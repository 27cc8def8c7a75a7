import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { App } from '../../lib/observe/app.js'

test('an app whose agent has started but not yet said hello (a busy machine) is a Node app that did not listen, not "no Node.js process"', () => {
  const runDir = mkdtempSync(join(tmpdir(), 'dyno-started-'))
  const app = new App({ command: ['node', 'app.js'], cwd: runDir, env: {}, runDir, collectors: {} })
  assert.equal(app.agentStarted(), false)
  // The agent's first act, before the app's first line: it makes raw/.
  mkdirSync(join(runDir, 'raw'))
  assert.equal(app.agentStarted(), true)
  app.channel.close()
})
