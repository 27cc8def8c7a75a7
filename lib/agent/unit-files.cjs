'use strict'
/**
 * The files of one observed unit (a process's main thread, `<pid>`, or one
 * of its worker threads, `<pid>-<threadId>`) in the run folder's raw/.
 */
const fs = require('node:fs')
const path = require('node:path')

/**
 * @param {string} dir the run folder's raw/
 * @param {string} unit
 * @returns {(name: string, text: string, append?: boolean) => boolean} false once the folder is gone
 */
function unitWriter (dir, unit) {
  return (name, text, append = false) => {
    try {
      if (append) fs.appendFileSync(path.join(dir, `${unit}.${name}`), text)
      else fs.writeFileSync(path.join(dir, `${unit}.${name}`), text)
      return true
    } catch {
      // The run folder went away: nothing more to write into.
      return false
    }
  }
}

/**
 * Who this process is, for `<unit>.process.json`.
 * @param {object} [extra]
 */
function processFacts (extra) {
  return JSON.stringify({
    pid: process.pid,
    ...extra,
    ppid: process.ppid,
    argv: process.argv,
    execArgv: process.execArgv,
    cwd: process.cwd(),
    node: process.versions.node,
    v8: process.versions.v8,
    startedAt: new Date().toISOString()
  })
}

module.exports = { unitWriter, processFacts }
