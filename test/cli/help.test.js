import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runDyno } from '../helpers/cli.js'
import { helpText } from '../../lib/cli/flags.js'

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

test('dyno --help lists every command with a line that says what it does', async () => {
  const { code, stdout } = await runDyno(['--help'])
  assert.equal(code, 0)
  /** @type {Record<string, string>} */
  const lines = {}
  for (const match of stdout.matchAll(/^ {2}(\w+) +(.+)$/gm)) lines[match[1]] = match[2]
  assert.deepEqual(Object.keys(lines), ['load', 'flame', 'doctor', 'heap', 'async', 'micro', 'compare', 'merge', 'report'])
  // compare loads two versions of a server, besides comparing two saved results.
  assert.match(lines.compare, /--load/)
  assert.match(lines.compare, /two saved results of dyno micro or dyno load/)
  assert.match(lines.load, /closed model .* open model/)
  // flame and heap do more than profile under load.
  assert.match(lines.flame, /--view/)
  assert.match(lines.heap, /--sampling/)
  assert.match(lines.heap, /heap diff/)
  assert.match(lines.doctor, /under load/)
  assert.match(lines.report, /run folder/)
})

test('a flag that is on by default says so once, with how to turn it off', () => {
  const text = helpText({ name: 'x', usage: 'dyno x', summary: 'x', flags: [{ name: 'pin', type: 'boolean', default: true, description: 'pin things' }] })
  assert.match(text, /--pin +pin things \(default: on; --no-pin turns it off\)$/m)
  assert.doesNotMatch(text, /default: true/)
})
