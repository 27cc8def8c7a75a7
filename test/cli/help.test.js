import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runDyno } from '../helpers/cli.js'

test('dyno help <command> prints that command\'s help', async () => {
  for (const name of ['micro', 'load']) {
    const { code, stdout } = await runDyno(['help', name])
    assert.equal(code, 0)
    assert.equal(stdout, (await runDyno([name, '--help'])).stdout)
    assert.match(stdout, new RegExp(`^Usage: dyno ${name} `))
  }
  const unknown = await runDyno(['help', 'nope'])
  assert.equal(unknown.code, 2)
  assert.match(unknown.stderr, /^dyno: unknown command "nope"; the commands are /)
})
