/**
 * The examples with dependencies of their own (examples/template: express
 * and pug): a test that starts one installs them first, from the example's
 * lockfile, with `npm ci`, once. A clean clone needs nothing more than
 * `npm ci` at the root. npm prefers its cache, and has a deadline.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url))

/** How long `npm ci` of an example may take, cache empty, before the test fails. */
const INSTALL_DEADLINE_MS = 180_000

/** @type {Map<string, Promise<string>>} */
const installs = new Map()

/**
 * The example's folder, once its dependencies are installed as its lockfile has them.
 * @param {string} name the folder under examples/
 * @returns {Promise<string>}
 */
export function exampleWithDependencies (name) {
  let install = installs.get(name)
  if (!install) {
    install = installDependencies(join(EXAMPLES, name))
    installs.set(name, install)
  }
  return install
}

/**
 * Whether node_modules holds what the lockfile says: npm ci writes the
 * packages it installed to node_modules/.package-lock.json.
 * @param {string} dir
 */
export function dependenciesInstalled (dir) {
  const installed = join(dir, 'node_modules', '.package-lock.json')
  if (!existsSync(installed)) return false
  const packages = (/** @type {string} */ file) => {
    const { '': _root, ...rest } = JSON.parse(readFileSync(file, 'utf8')).packages ?? {}
    return Object.fromEntries(Object.entries(rest).map(([path, p]) => [path, p.version]))
  }
  try {
    const locked = packages(join(dir, 'package-lock.json'))
    const present = packages(installed)
    return Object.keys(locked).length > 0 && Object.entries(locked).every(([path, version]) => present[path] === version)
  } catch {
    return false
  }
}

/**
 * Test files run side by side, each in its own process: one installs at a
 * time, and the others wait for it, then find the example installed.
 * @param {string} dir @returns {Promise<string>}
 */
async function installDependencies (dir) {
  if (dependenciesInstalled(dir)) return dir
  const lock = join(tmpdir(), `dyno-npm-ci-${createHash('sha256').update(dir).digest('hex').slice(0, 16)}.lock`)
  const giveUp = Date.now() + INSTALL_DEADLINE_MS
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err
      // A lock older than any install may take was left by a process that died.
      if (lockAge(lock) > INSTALL_DEADLINE_MS + 10_000) rmSync(lock, { recursive: true, force: true })
      else if (Date.now() > giveUp) throw new Error(`another process has been installing ${dir} for longer than ${INSTALL_DEADLINE_MS / 1000} s (${lock})`)
      else await sleep(250)
    }
  }
  try {
    if (!dependenciesInstalled(dir)) await npmCi(dir)
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
  if (!dependenciesInstalled(dir)) throw new Error(`npm ci --prefix ${dir} left node_modules unlike its lockfile`)
  return dir
}

/** @param {string} lock ms since it was made; 0 when it is gone */
function lockAge (lock) {
  try {
    return Date.now() - statSync(lock).mtimeMs
  } catch {
    return 0
  }
}

/** @param {string} dir */
async function npmCi (dir) {
  const args = ['ci', '--prefix', dir, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']
  await new Promise((resolve, reject) => {
    const child = spawn('npm', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (d) => { output += d })
    child.stderr.setEncoding('utf8').on('data', (d) => { output += d })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`npm ${args.join(' ')} did not finish within ${INSTALL_DEADLINE_MS / 1000} s\n${output}`))
    }, INSTALL_DEADLINE_MS)
    child.on('error', (err) => {
      clearTimeout(timer)
      reject(new Error(`npm ${args.join(' ')} could not start: ${err.message}`))
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code === 0) resolve(undefined)
      else reject(new Error(`npm ${args.join(' ')} failed (${signal ?? `exit code ${code}`})\n${output}`))
    })
  })
}
