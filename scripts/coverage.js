/**
 * Line coverage per area of dyno (lib/load, lib/analyze, …), from the
 * per-file summary of Node's test coverage. A file no test loaded counts
 * with none of its lines covered, where Node's own report leaves it out.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

/** @typedef {{ area: string, covered: number, total: number }} AreaCoverage */
/** @typedef {{ path: string, totalLineCount: number, coveredLineCount: number }} CoveredFile */

/**
 * What scripts/test-reporter.js records of the run on this Node.
 * @typedef {object} TestRunReport
 * @property {number} failed tests that failed
 * @property {CoveredFile[] | null} coverage per file, when Node reported it
 * @property {string | null} coverageProblem Node's diagnostic when it could not
 */

/**
 * Whether the suite passed. Node exits 1 when a coverage file cannot be read,
 * with every test passed: a process the tests stopped by SIGKILL while it
 * wrote its coverage leaves a truncated file. That is a gap in the coverage
 * figures, never a failed test.
 * @param {number | null} status the exit code of `node --test`
 * @param {TestRunReport | null} report null when the reporter wrote none
 */
export function suitePassed (status, report) {
  if (status === 0) return true
  return status === 1 && report !== null && report.failed === 0 && report.coverageProblem !== null
}

const MEASURED = ['bin', 'lib']

/**
 * @param {CoveredFile[]} files as the test reporter wrote them
 * @param {string} root the repository
 * @returns {AreaCoverage[]} sorted by area, with 'all' last
 */
export function coverageByArea (files, root) {
  /** @type {Map<string, { covered: number, total: number }>} */
  const byFile = new Map()
  for (const file of files) byFile.set(relative(root, file.path), { covered: file.coveredLineCount, total: file.totalLineCount })
  /** @type {Map<string, AreaCoverage>} */
  const areas = new Map()
  const all = { area: 'all', covered: 0, total: 0 }
  for (const path of MEASURED.flatMap((dir) => sourceFiles(root, dir))) {
    const counts = byFile.get(path) ?? { covered: 0, total: readFileSync(join(root, path), 'utf8').split('\n').length }
    const key = areaOf(path)
    const area = areas.get(key) ?? { area: key, covered: 0, total: 0 }
    area.covered += counts.covered
    area.total += counts.total
    areas.set(key, area)
    all.covered += counts.covered
    all.total += counts.total
  }
  return [...[...areas.values()].sort((a, b) => a.area.localeCompare(b.area)), all]
}

/**
 * lib/load/engine.js → lib/load; lib/errors.js → lib; bin/dyno.js → bin.
 * @param {string} path relative, with the platform's separators
 */
function areaOf (path) {
  const parts = path.split(sep)
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]
}

/**
 * The .js and .cjs files under `dir`, relative to `root`.
 * @param {string} root @param {string} dir
 * @returns {string[]}
 */
function sourceFiles (root, dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(root, path)
    return /\.c?js$/.test(entry.name) ? [path] : []
  })
}

/**
 * @param {AreaCoverage[]} rows
 * @returns {string}
 */
export function renderCoverage (rows) {
  const width = Math.max(...rows.map((r) => r.area.length))
  const count = (/** @type {number} */ n) => n.toLocaleString('en-US')
  const countWidth = Math.max(...rows.map((r) => count(r.total).length))
  return rows.map((r) => {
    const percent = r.total === 0 ? '–' : `${(100 * r.covered / r.total).toFixed(1)}%`
    return `  ${r.area.padEnd(width)}  ${percent.padStart(6)}  ${count(r.covered).padStart(countWidth)} of ${count(r.total).padStart(countWidth)} lines`
  }).join('\n') + '\n'
}
