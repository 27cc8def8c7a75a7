/**
 * For the tests on real apps: a dyno command run in a fresh folder with the
 * environment the examples read (PORT=0, DATABASE_URL, UPSTREAM_URL), its
 * --json document, and its run folder.
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runDyno } from './cli.js'

export const root = fileURLToPath(new URL('../..', import.meta.url))

/**
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @param {number} [timeout]
 */
export async function dynoOn (args, env, timeout = 180_000) {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-real-'))
  const run = await runDyno(args, { cwd, env: { PORT: '0', ...env }, timeout })
  const runs = existsSync(join(cwd, '.dyno')) ? readdirSync(join(cwd, '.dyno')) : []
  const folder = runs.length === 1 ? join(cwd, '.dyno', runs[0]) : null
  let json = null
  if (args.includes('--json')) {
    try {
      json = JSON.parse(run.stdout)
    } catch {
      throw new Error(`dyno ${args.join(' ')} printed no JSON document:\n${run.stdout}\n${run.stderr}`)
    }
  }
  return { ...run, cwd, folder, json }
}
