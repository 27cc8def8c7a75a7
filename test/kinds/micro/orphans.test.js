import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { DYNO } from '../../helpers/cli.js'
import { running } from '../../helpers/processes.js'
import { waitFor } from '../../helpers/wait.js'

const AA = fileURLToPath(new URL('../../fixtures/micro/aa.js', import.meta.url))

/** The processes `pid` started, from /proc. @param {number} pid @returns {number[]} */
function children (pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

test('a run killed with SIGKILL leaves no benchmark process behind: each ends once its run is gone', async (t) => {
  const dyno = spawn(process.execPath, [DYNO, 'micro', '--rounds', '50', '--time', '2s', AA], { stdio: 'ignore' })
  t.after(() => { if (dyno.exitCode === null) dyno.kill('SIGKILL') })
  const workers = await waitFor(() => { const pids = children(/** @type {number} */ (dyno.pid)); return pids.length > 0 ? pids : null }, { what: 'a benchmark process' })
  dyno.kill('SIGKILL')
  await waitFor(() => workers.every((pid) => !running(pid)), { what: `the benchmark processes ${workers.join(', ')} ending`, timeoutMs: 15_000 })
  assert.ok(workers.length > 0)
})
