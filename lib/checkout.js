import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { DynoError, dynoError } from './errors.js'

const run = promisify(execFile)

/**
 * Another version of the user's code, next to the working tree: a detached
 * `git worktree` of a ref in a temporary folder. `remove()` takes it away
 * again, from the folder and from the repository's list of worktrees.
 *
 * @typedef {object} Checkout
 * @property {string} root the repository's top folder (the working tree)
 * @property {string} dir the checkout's top folder
 * @property {string} ref as the user named it
 * @property {string} commit its full hash
 * @property {() => Promise<void>} remove
 */

/**
 * @param {string[]} args @param {string} cwd
 * @returns {Promise<string>} git's output, trimmed; throws with git's first line of error
 */
async function git (args, cwd) {
  try {
    const { stdout } = await run('git', args, { cwd, maxBuffer: 1 << 20 })
    return stdout.trim()
  } catch (err) {
    const e = /** @type {NodeJS.ErrnoException & { stderr?: string }} */ (err)
    if (e.code === 'ENOENT') throw dynoError('DYNO_NOT_GIT.noGit')
    throw Object.assign(new Error(String(e.stderr ?? e.message).trim().split('\n')[0]), { cause: err })
  }
}

/**
 * The repository `cwd` is in, and the commit `ref` names; one line and exit
 * code 2 for a folder outside any repository or a ref that names no commit.
 * @param {string} cwd @param {string} ref
 */
export async function resolveRef (cwd, ref) {
  const root = await git(['rev-parse', '--show-toplevel'], cwd).catch((/** @type {Error} */ err) => {
    if (err instanceof DynoError) throw err
    throw dynoError('DYNO_NOT_GIT.notRepository', { cwd })
  })
  if (ref.startsWith('-') || ref.trim() === '') throw dynoError('DYNO_BAD_REF.notRef', { ref })
  const commit = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], root).catch(() => '')
  if (!commit) throw dynoError('DYNO_BAD_REF.noCommit', { ref, root })
  return { root, commit }
}

/**
 * Checks `ref` out into a temporary folder. The working tree's node_modules
 * is linked in when the ref has none, so the code finds its dependencies.
 * @param {string} cwd @param {string} ref
 * @returns {Promise<Checkout>}
 */
export async function checkout (cwd, ref) {
  const { root, commit } = await resolveRef(cwd, ref)
  const parent = mkdtempSync(join(tmpdir(), 'dyno-against-'))
  const dir = join(parent, 'tree')
  try {
    await git(['worktree', 'add', '--detach', '--quiet', dir, commit], root)
  } catch (err) {
    rmSync(parent, { recursive: true, force: true })
    await git(['worktree', 'prune'], root).catch(() => {})
    throw dynoError('DYNO_CHECKOUT', { ref, why: /** @type {Error} */ (err).message })
  }
  const modules = join(root, 'node_modules')
  if (existsSync(modules) && !existsSync(join(dir, 'node_modules'))) symlinkSync(modules, join(dir, 'node_modules'), 'junction')
  let removed = false
  return {
    root,
    dir,
    ref,
    commit,
    async remove () {
      if (removed) return
      removed = true
      await git(['worktree', 'remove', '--force', dir], root).catch(() => {})
      rmSync(parent, { recursive: true, force: true })
      // The folder may have gone before git could remove it: forget it all the same.
      await git(['worktree', 'prune'], root).catch(() => {})
    }
  }
}
