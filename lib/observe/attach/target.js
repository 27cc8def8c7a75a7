import { existsSync } from 'node:fs'
import { basename } from 'node:path'
import { dynoError } from '../../errors.js'
import { processFacts, processState } from './proc.js'

/**
 * Checks that `--pid` names a process dyno may observe: one that lives, is
 * the user's, and runs Node.js. Sends it nothing.
 * @param {number} pid
 * @returns {import('./proc.js').ProcessFacts}
 */
export function checkTarget (pid) {
  if (pid === process.pid) throw dynoError('DYNO_PID_NOT_NODE.self', { pid })
  if (!existsSync('/proc/self')) throw dynoError('DYNO_PID_UNSUPPORTED', { platform: process.platform })
  try {
    process.kill(pid, 0)
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM') throw dynoError('DYNO_PID_NOT_YOURS', { pid })
    throw dynoError('DYNO_PID_NOT_FOUND', { pid })
  }
  let facts
  try {
    facts = processFacts(pid)
  } catch {
    throw dynoError('DYNO_PID_NOT_FOUND', { pid })
  }
  assertNode(pid, facts)
  // A stopped process would open its inspector once continued, with no one left to close it.
  const state = processState(pid)
  if (state === 'T' || state === 't') throw dynoError('DYNO_PID_STOPPED', { pid, by: state === 't' ? 'a debugger or tracer (strace, gdb)' : 'a signal (SIGSTOP, Ctrl-Z)' })
  return facts
}

/**
 * Throws unless the process runs Node.js. A process dyno may signal can still
 * keep its program from it (a sandbox's init, to root): its command line says then.
 * @param {number} pid
 * @param {import('./proc.js').ProcessFacts} facts
 */
export function assertNode (pid, facts) {
  if (!runsNode(facts)) throw dynoError('DYNO_PID_NOT_NODE.other', { pid, program: facts.exe ?? facts.argv[0] ?? '?', command: facts.argv.join(' ').slice(0, 80) })
}

/**
 * Node's binary, by its name or the name it was started by (a versioned or
 * packaged build: node20, nodejs).
 * @param {import('./proc.js').ProcessFacts} facts
 */
function runsNode (facts) {
  return [facts.exe ?? '', facts.argv[0] ?? ''].some((path) => /^node(js)?[\d.-]*$/.test(basename(path).replace(/ \(deleted\)$/, '')))
}
