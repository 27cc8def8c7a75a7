/**
 * For the tests of dyno micro: a run that both prints its terminal report
 * and saves every process's figures (--save), and checks that what dyno
 * decided follows from those figures, whatever this machine made of them.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { analyzeGroup } from '../../lib/micro/analyze.js'
import { pValue } from '../../lib/format.js'
import { ratioText } from '../../lib/report/comparison-table.js'
import { runDyno } from './cli.js'

/**
 * dyno micro with --save, in a fresh folder: its output, and the groups of
 * the run it saved (the first file's), processes and all.
 * @param {string[]} args
 */
export async function microSaved (args) {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-micro-'))
  const run = await runDyno(['micro', '--save', 'run', ...args], { cwd, timeout: 120_000 })
  /** @type {any[]} */
  const groups = run.code === 0 ? JSON.parse(readFileSync(join(cwd, '.dyno', 'micro', 'run.json'), 'utf8')).runs[0].files[0].groups : []
  return { ...run, groups }
}

/**
 * The analysis, fed the processes dyno recorded, gives the figures and the
 * verdicts dyno saved.
 * @param {any} group a saved group
 */
export function assertFollowsFromProcesses (group) {
  const again = analyzeGroup(group.name, group.cases.map((/** @type {any} */ c) => ({ group: group.name, name: c.name, error: c.error, processes: c.processes })))
  const saved = (/** @type {any} */ value) => JSON.parse(JSON.stringify(value))
  assert.deepEqual(saved(again.fastest), group.fastest, `group "${group.name}": the fastest`)
  again.cases.forEach((c, i) => {
    assert.deepEqual(saved(c.summary), group.cases[i].summary, `${c.name}: its summary`)
    assert.deepEqual(saved(c.againstFastest), group.cases[i].againstFastest, `${c.name}: against the fastest`)
  })
}

/**
 * The terminal says what the saved figures say: each row of each group's
 * table (how many times slower than the fastest, and whether significantly),
 * and each group's "Fastest is" line.
 * @param {string} stdout
 * @param {any[]} groups as saved
 */
export function assertTerminalSays (stdout, groups) {
  /** @type {string[]} */
  const rows = []
  /** @type {string[]} */
  const fastest = []
  for (const group of groups) {
    const measured = group.cases.filter((/** @type {any} */ c) => c.summary)
    if (measured.length < 2) continue
    for (const c of [...measured].sort((a, b) => b.summary.opsPerSecond - a.summary.opsPerSecond)) {
      const vs = c.againstFastest
      rows.push(`${c.name} │ ${vs ? ratioText(vs, 'slower') : 'fastest'} │ ${vs ? `${vs.significant ? 'yes' : 'no'}, ${pValue(vs.p)}` : ''}`)
    }
    const names = group.fastest.names
    const list = names.length === 2 ? names.join(' or ') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
    fastest.push(group.fastest.separated ? `Fastest is ${names[0]}` : `Fastest is ${list}: ${measured.length === names.length ? 'the cases' : 'these'} cannot be told apart (no significant difference at 95%)`)
  }
  const shown = [...stdout.matchAll(/^│ (\S+) +│ [\d,.]+ +│ (.+?) +│ (.*?) *│/gm)].filter((m) => m[1] !== 'Case').map((m) => `${m[1]} │ ${m[2]} │ ${m[3]}`)
  assert.deepEqual(shown, rows, stdout)
  assert.deepEqual(stdout.match(/^Fastest is .*$/gm) ?? [], fastest, stdout)
}
