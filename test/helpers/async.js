/**
 * For the tests of dyno async: the async examples and what they are known to
 * wait (examples/async/backend.cjs), so where each finding must be and the
 * saving it must estimate; and dyno async run in a fresh folder.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runDyno } from './cli.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
export const WAIT_MS = /** @type {Record<string, number>} */ (createRequire(import.meta.url)('../../examples/async/backend.cjs').WAIT_MS)

/** @param {string} name a file of examples/async/ */
export const examplePath = (name) => `${root}examples/async/${name}`

/**
 * The 1-based line of `file` holding `text` (once).
 * @param {string} file
 * @param {string} text
 */
export function lineOf (file, text) {
  const lines = readFileSync(file, 'utf8').split('\n')
  const at = lines.findIndex((line) => line.includes(text))
  if (at === -1 || lines.findIndex((line, i) => i > at && line.includes(text)) !== -1) throw new Error(`"${text}" is not on exactly one line of ${file}`)
  return at + 1
}

/** Items read by the loop examples, and queries and connections of the fan-out ones. */
export const ITEMS = 20
export const QUERIES = 40
export const CONNECTIONS = 4

/** What each example's finding must say: where, and the true saving per request from the known waits. */
export const EXPECTED = {
  'chain-serial.cjs': {
    kind: 'serial-awaits',
    line: () => lineOf(examplePath('chain-serial.cjs'), 'await readUser(id)'),
    costMs: WAIT_MS.user + WAIT_MS.orders + WAIT_MS.recommendations,
    savingMs: WAIT_MS.user + WAIT_MS.orders
  },
  'loop-serial.js': {
    kind: 'await-in-loop',
    line: () => lineOf(examplePath('loop-serial.js'), 'await backend.readItem(id)'),
    costMs: ITEMS * WAIT_MS.item,
    savingMs: (ITEMS - 1) * WAIT_MS.item
  },
  'fan-out.js': {
    kind: 'unbounded-fan-out',
    line: () => lineOf(examplePath('fan-out.js'), 'await Promise.all('),
    // One request at a time: the queries go through the pool in QUERIES / CONNECTIONS rounds.
    costMs: QUERIES / CONNECTIONS * WAIT_MS.query,
    savingMs: (QUERIES / CONNECTIONS - 1) * WAIT_MS.query
  }
}

/** The fixed versions, which must get no finding. */
export const FIXED = ['chain-all.cjs', 'loop-all.js', 'loop-limited.js', 'fan-out-limited.js']

/**
 * Whether a figure is within a share of the one expected (for recorded
 * traces, whose times are known exactly).
 * @param {number} actual @param {number} expected @param {number} [tolerance]
 */
export function within (actual, expected, tolerance = 0.2) {
  return Math.abs(actual - expected) <= expected * tolerance
}

/**
 * Whether a time dyno measured on a live server is no less than the one the
 * example's waits give, within 20% (a timer never fires early). How far
 * above it lands depends on how late the machine makes timers: that is
 * measuredWithin's, in the timing tier.
 * @param {number} actual @param {number} expected
 */
export function notBelow (actual, expected) {
  return actual >= expected * 0.8
}

/**
 * Whether a time dyno measured on a live server matches the one the
 * example's waits give: within 20% below (a timer never fires early), and
 * above by as much as a moderately busy machine makes timers late. On a
 * quiet machine the figures land within 20% both ways. For the timing tier
 * (test/timing/): a busier machine makes timers later still.
 * @param {number} actual @param {number} expected
 */
export function measuredWithin (actual, expected) {
  return notBelow(actual, expected) && actual <= expected * 2.5
}

/**
 * What dyno async says a finding costs and saves follows from the requests
 * it recorded: no saving above the cost, and no cost above what the slowest
 * traced request took (both rounded to hundredths of a ms in the JSON).
 * @param {any} result dyno async's JSON document
 * @param {any} finding one of its findings
 */
export function followsFromRequests (result, finding) {
  const slack = 0.01
  return finding.savingMs > 0 && finding.savingMs <= finding.perRequestMs + slack && finding.perRequestMs <= result.latency.maxMs + slack
}

/**
 * Runs dyno async in a fresh folder; returns the output and the run folder.
 * @param {string[]} args
 */
export async function dynoAsync (args) {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-async-'))
  const run = await runDyno(['async', ...args], { cwd, env: { PORT: '0' }, timeout: 90_000 })
  const runs = existsSync(join(cwd, '.dyno')) ? readdirSync(join(cwd, '.dyno')) : []
  const folder = runs.length === 1 ? join(cwd, '.dyno', runs[0]) : null
  // With --json, stdout holds dyno's document alone: the app's own output goes to stderr.
  return { ...run, cwd, folder, json: args.includes('--json') && run.stdout.trim() ? JSON.parse(run.stdout) : null }
}
