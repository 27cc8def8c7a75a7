/**
 * The tools dyno is measured against live in tools/bench-peers/node_modules,
 * apart from dyno's own dependencies: `npm ci --prefix tools/bench-peers`
 * installs them.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** Where the peers are installed. */
export const PEERS = fileURLToPath(new URL('../../tools/bench-peers/node_modules/', import.meta.url))

/**
 * The path of a file inside a peer tool's package; exits with the command
 * that installs the tools when it is missing.
 * @param {string} file like 'autocannon/autocannon.js'
 */
export function peerTool (file) {
  const path = PEERS + file
  if (!existsSync(path)) {
    console.error(`${file.split('/')[0]} is missing: run npm ci --prefix tools/bench-peers`)
    process.exit(2)
  }
  return path
}
