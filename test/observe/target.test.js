/**
 * Whether a process runs Node.js, from what /proc showed of it: its program
 * when /proc lets dyno read it, else its command line.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { assertNode } from '../../lib/observe/attach/target.js'

/** @param {string | null} exe @param {string[]} argv */
const facts = (exe, argv) => ({ exe, argv, nodeOptions: null, cwd: '/' })

test('node by its program, or by the name it was started by', () => {
  assert.doesNotThrow(() => assertNode(7, facts('/usr/bin/node', ['node', 'app.js'])))
  assert.doesNotThrow(() => assertNode(7, facts('/opt/node-v22.1.0/bin/node22', ['node22', 'app.js'])))
  assert.doesNotThrow(() => assertNode(7, facts('/usr/bin/node (deleted)', ['node', 'app.js'])))
  assert.doesNotThrow(() => assertNode(7, facts('/usr/local/bin/app', ['nodejs', 'app.js'])))
})

test('a program /proc keeps from dyno: the command line decides, and names what runs', () => {
  assert.doesNotThrow(() => assertNode(7, facts(null, ['/usr/bin/node', 'server.js'])))
  assert.throws(() => assertNode(1, facts(null, ['/process_api', '--init'])), (err) => {
    assert.equal(/** @type {any} */ (err).code, 'DYNO_PID_NOT_NODE')
    assert.match(/** @type {Error} */ (err).message, /^pid 1 runs \/process_api \(\/process_api --init\), not Node\.js/)
    return true
  })
  assert.throws(() => assertNode(9, facts('/usr/bin/python3', ['python3', 'node.py'])), /pid 9 runs \/usr\/bin\/python3/)
})
