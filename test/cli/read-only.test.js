// A run folder or a save that dyno cannot write into: one line, exit code 2,
// nothing measured in vain. As root every folder is writable, so there the
// commands run as the unprivileged user nobody.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { DYNO, oneLine, runDyno } from '../helpers/cli.js'

const NOBODY = 65534
const asRoot = process.getuid?.() === 0

/**
 * dyno, as nobody when the suite runs as root.
 * @param {string[]} args @param {string} cwd
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function dynoAsUser (args, cwd) {
  return new Promise((resolve, reject) => {
    // Node hands its coverage folder on to every child, and the other user cannot write into the
    // suite's: under coverage, that child's goes to a folder of its own.
    const coverage = process.env.NODE_V8_COVERAGE ? { NODE_V8_COVERAGE: openDir() } : {}
    const child = spawn(process.execPath, [DYNO, ...args], { cwd, env: { ...process.env, ...coverage, NO_COLOR: '1', HOME: cwd }, stdio: ['ignore', 'pipe', 'pipe'], ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}) })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d })
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`dyno ${args.join(' ')} as another user did not finish within 60 s\nstdout: ${stdout}\nstderr: ${stderr}`))
    }, 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/** A folder anyone may write into. */
function openDir () {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-open-'))
  chmodSync(dir, 0o777)
  return dir
}

/** A folder nobody can read and enter but not write to. */
function readOnlyDir () {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-read-only-'))
  chmodSync(dir, 0o755)
  return dir
}

test('dyno report on a run folder it cannot write into: one line that says to render a copy, exit 2', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'dyno-report-src-'))
  const app = fileURLToPath(new URL('../../examples/async/loop-all.js', import.meta.url))
  const made = await runDyno(['async', '--on-port', 'true', '--', process.execPath, app], { cwd, env: { PORT: '0' }, timeout: 60_000 })
  assert.equal(made.code, 0, made.stderr)
  const [name] = readdirSync(join(cwd, '.dyno'))
  const parent = readOnlyDir()
  const folder = join(parent, name)
  cpSync(join(cwd, '.dyno', name), folder, { recursive: true })
  chmodSync(folder, 0o555)
  const run = await dynoAsUser(['report', folder], parent)
  assert.equal(run.code, 2, run.stderr)
  assert.match(oneLine(run.stderr), /cannot write the reports into .* \((EACCES|EPERM|EROFS)\): .*copy the folder somewhere writable/)
})

test('micro --save where it cannot write: refused before it measures, in one line', async () => {
  const cwd = readOnlyDir()
  mkdirSync(join(cwd, '.dyno'), { mode: 0o555 })
  chmodSync(join(cwd, '.dyno'), 0o555)
  const bench = fileURLToPath(new URL('../../examples/micro/divide-by-and-sum.js', import.meta.url))
  const run = await dynoAsUser(['micro', '--save', 'before', bench], cwd)
  assert.equal(run.code, 2, run.stderr)
  assert.match(oneLine(run.stderr), /cannot save to \.dyno\/micro\/before\.json: (EACCES|EPERM|EROFS); run where dyno may write, or leave out --save/)
  assert.equal(run.stdout, '')
})
