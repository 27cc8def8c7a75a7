import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const LINES = fileURLToPath(new URL('../../tools/node-lines/node_modules/', import.meta.url))

/** The Node.js binaries to take snapshots with: this one, and the other lines' when installed. */
export function nodeBinaries () {
  const others = ['node22', 'node24', 'node26'].map((name) => join(LINES, name, 'bin', 'node')).filter((path) => existsSync(path))
  return [process.execPath, ...others]
}

/**
 * A temporary folder, removed when the test process exits: snapshots and
 * run folders weigh megabytes.
 * @param {string} prefix
 */
export function tempDir (prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/**
 * Runs `script` (CommonJS source) in a child Node.js, where `snapshot()`
 * writes the next heap snapshot of it; returns their paths, in order.
 * @param {string} script
 * @param {string} [node]
 */
export function takeSnapshots (script, node = process.execPath) {
  const dir = tempDir('dyno-heap-')
  const preamble = `let taken = 0; const snapshot = () => require('v8').writeHeapSnapshot(require('path').join(${JSON.stringify(dir)}, 'snap-' + (taken++) + '.heapsnapshot'));\n`
  const run = spawnSync(node, ['-e', preamble + script], { encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`the snapshot script failed: ${run.stderr}`)
  return readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot')).sort().map((f) => join(dir, f))
}
