import assert from 'node:assert/strict'
import { test } from 'node:test'
import { inspectorFlags, isLoopback, nodeFlagsOf } from '../../lib/observe/attach/node-flags.js'

test('Node\'s flags end at the script: the app\'s own arguments are not read as Node\'s', () => {
  assert.deepEqual(nodeFlagsOf(['node', '--max-old-space-size=512', '-r', 'dotenv/config', 'app.js', '--inspect', '--disable-sigusr1']), ['--max-old-space-size=512', '-r', 'dotenv/config'])
  assert.deepEqual(inspectorFlags(['node', 'app.js', '--inspect'], []), { host: '127.0.0.1', port: 9229, openedAtStart: null, forbids: null })
})

test('the inspector\'s address from --inspect-port, in every spelling Node takes', () => {
  assert.deepEqual(inspectorFlags(['node', '--inspect-port=9333', 'app.js'], []), { host: '127.0.0.1', port: 9333, openedAtStart: null, forbids: null })
  assert.equal(inspectorFlags(['node', '--inspect-port', '0', 'app.js'], []).port, 0)
  assert.equal(inspectorFlags(['node', '--debug-port=9400', 'app.js'], []).port, 9400)
  assert.equal(inspectorFlags(['node', '--inspect_port=9401', 'app.js'], []).port, 9401)
  assert.deepEqual(inspectorFlags(['node', '--inspect-port=0.0.0.0:9230', 'app.js'], []), { host: '0.0.0.0', port: 9230, openedAtStart: null, forbids: null })
  assert.deepEqual(inspectorFlags(['node', '--inspect-port=[::1]:9231', 'app.js'], []), { host: '::1', port: 9231, openedAtStart: null, forbids: null })
  assert.equal(inspectorFlags(['node', '--inspect-port=localhost', 'app.js'], []).host, 'localhost')
})

test('NODE_OPTIONS counts, and the command line comes after it', () => {
  assert.equal(inspectorFlags(['node', 'app.js'], ['--inspect-port=9500']).port, 9500)
  assert.equal(inspectorFlags(['node', '--inspect-port=9600', 'app.js'], ['--inspect-port=9500']).port, 9600)
  assert.equal(inspectorFlags(['node', 'app.js'], ['--disable-sigusr1']).forbids, '--disable-sigusr1')
})

test('an inspector opened at start, and the flags under which SIGUSR1 opens none', () => {
  assert.deepEqual(inspectorFlags(['node', '--inspect', 'app.js'], []), { host: '127.0.0.1', port: 9229, openedAtStart: '--inspect', forbids: null })
  assert.deepEqual(inspectorFlags(['node', '--inspect-brk=9339', 'app.js'], []), { host: '127.0.0.1', port: 9339, openedAtStart: '--inspect-brk', forbids: null })
  assert.equal(inspectorFlags(['node', '--inspect-wait=0.0.0.0:9229', 'app.js'], []).host, '0.0.0.0')
  for (const flag of ['--disable-sigusr1', '--permission', '--experimental-permission', '--experimental-policy=policy.json']) {
    assert.equal(inspectorFlags(['node', flag, 'app.js'], []).forbids, flag.split('=')[0], flag)
  }
})

test('loopback hosts, and those reachable from elsewhere', () => {
  for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1']) assert.equal(isLoopback(host), true, host)
  for (const host of ['0.0.0.0', '::', '10.0.0.5', 'example.internal']) assert.equal(isLoopback(host), false, host)
})
