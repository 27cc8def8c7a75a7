/**
 * The tools dyno is measured against live in bench/node_modules, apart from
 * dyno's own dependencies: `npm ci --prefix bench` installs them.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * The path of a file inside a peer tool's package; exits with the command
 * that installs the tools when it is missing.
 * @param {string} file like 'autocannon/autocannon.js'
 */
export function peerTool (file) {
  const path = fileURLToPath(new URL(`../node_modules/${file}`, import.meta.url))
  if (!existsSync(path)) {
    console.error(`${file.split('/')[0]} is missing: run npm ci --prefix bench`)
    process.exit(2)
  }
  return path
}
