'use strict'
/**
 * Runs clinic bubbleprof (installed under bench/: npm install --prefix bench
 * --no-save @clinic/bubbleprof) on an app under the same load as
 * bench/async.js, and prints a JSON line after each stage (the last one
 * printed holds): the load's req/s, the bytes of trace it collected, and
 * whether and when it wrote its report.
 *
 *   node bench/lib/bubbleprof.cjs <app.js> <folder> <load seconds>
 */
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const Bubbleprof = require(path.join(__dirname, '..', 'node_modules', '@clinic', 'bubbleprof'))

const [app, dest, seconds] = process.argv.slice(2)
const dyno = path.join(__dirname, '..', '..', 'bin', 'dyno.js')
const started = Date.now()
const result = { rps: 0, traceBytes: 0, collectedS: 0, report: false, reportS: 0, error: null }
const print = () => console.log(JSON.stringify(result))

const tool = new Bubbleprof({ detectPort: true, dest })
tool.on('port', (port, proc, done) => {
  const out = execFileSync('taskset', ['-c', '1', process.execPath, dyno, 'load', '-c', '50', '-d', seconds, '--json', `http://127.0.0.1:${port}/`], { encoding: 'utf8' })
  result.rps = JSON.parse(out).requests.average
  print()
  done()
  proc.kill('SIGINT')
})
tool.collect(['taskset', '-c', '0', process.execPath, app], (err, dir) => {
  result.collectedS = (Date.now() - started) / 1000
  for (const file of fs.readdirSync(process.cwd())) if (file.startsWith('node_trace.')) result.traceBytes += fs.statSync(file).size
  print()
  if (err) {
    result.error = err.message.split('\n')[0]
    return print()
  }
  tool.visualize(dir, dir + '.html', (err) => {
    result.reportS = (Date.now() - started) / 1000
    result.report = !err && fs.existsSync(dir + '.html')
    if (err) result.error = err.message.split('\n')[0]
    print()
  })
})
