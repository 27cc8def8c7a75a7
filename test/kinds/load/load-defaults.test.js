import assert from 'node:assert/strict'
import { test } from 'node:test'
import { command } from '../../../lib/kinds/load/cli.js'
import { DEFAULTS } from '../../../lib/load/options.js'
import { runDyno } from '../../helpers/cli.js'

test('the load flags take their defaults from the engine\'s one list', async () => {
  const flag = (/** @type {string} */ name) => /** @type {{ default?: unknown } | undefined} */ (command.flags.find((f) => f.name === name))
  assert.equal(flag('connections')?.default, DEFAULTS.connections)
  assert.equal(flag('pipelining')?.default, DEFAULTS.pipelining)
  assert.equal(flag('duration')?.default, DEFAULTS.duration)
  assert.equal(flag('timeout')?.default, DEFAULTS.timeout)
  assert.equal(flag('workers')?.default, DEFAULTS.workers)
  assert.equal(flag('method')?.default, DEFAULTS.method)
  const help = await runDyno(['load', '--help'])
  assert.match(help.stdout, new RegExp(`falls behind \\(default: ${DEFAULTS.maxConnections}, or -c when higher\\)`))
})
