import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { currentCpu, gatherOnOneCpu } from '../../lib/system/cpu-affinity.js'

test('the processes of a round are gathered on one CPU (Linux, with taskset)', async () => {
  // Busy until the test kills them, however long it takes to get there.
  const busy = () => spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' })
  const children = [busy(), busy()]
  try {
    const pids = children.map((c) => /** @type {number} */ (c.pid))
    const cpu = gatherOnOneCpu(pids)
    if (process.platform !== 'linux') {
      assert.equal(cpu, null)
      return
    }
    assert.equal(typeof cpu, 'number')
    for (const pid of pids) {
      const allowed = /^Cpus_allowed_list:\s*(.+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
      assert.equal(allowed, String(cpu))
    }
    assert.ok(Number.isInteger(currentCpu(process.pid)))
  } finally {
    for (const c of children) c.kill('SIGKILL')
  }
})
